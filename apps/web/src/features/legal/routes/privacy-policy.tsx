import { ContentPage } from '@/components/layouts/content-page.js';

export function PrivacyPolicyRoute() {
  return (
    <ContentPage title="Privacy Policy" intro="How Covenant collects, uses and protects personal data." />
  );
}
