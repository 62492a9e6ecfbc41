import { ContentPage } from '@/components/layouts/content-page.js';

export function ComplianceRoute() {
  return (
    <ContentPage title="Compliance" intro="How Covenant meets its KYC, AML and Travel Rule obligations." />
  );
}
