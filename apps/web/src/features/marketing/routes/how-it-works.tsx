import { ContentPage } from '@/components/layouts/content-page.js';

export function HowItWorksRoute() {
  return (
    <ContentPage
      title="How It Works"
      intro="The six steps of a Covenant trade, from exchanging Customer Information Sheets to the final settlement."
    />
  );
}
