import { ContentPage } from '@/components/layouts/content-page.js';

export function ContactRoute() {
  return (
    <ContentPage
      title="Contact"
      intro="How to reach the Covenant team about your account, a trade or a partnership."
    />
  );
}
