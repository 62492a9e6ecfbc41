import { ContentPage } from '@/components/layouts/content-page.js';

export function FeaturesRoute() {
  return (
    <ContentPage
      title="Features"
      intro="What Covenant offers for over-the-counter trades: an exchange of Customer Information Sheets, automated escrow on Bitcoin, Ethereum and Solana, KYC verification and a flat 0.01% platform fee."
    />
  );
}
