import { ContentPage } from '@/components/layouts/content-page.js';

export function SecurityRoute() {
  return (
    <ContentPage
      title="Security"
      intro="How Covenant protects escrowed funds and personal data: escrow that needs two of three keys to move, KYC and AML checks, and an audit trail of every deal."
    />
  );
}
