import { ContentPage } from '@/components/layouts/content-page.js';

export function HelpCenterRoute() {
  return (
    <ContentPage
      title="Help Center"
      intro="Answers to common questions about accounts, trading, escrow and wallets, and the ways to reach our support team."
    />
  );
}
