import { ContentPage } from '@/components/layouts/content-page.js';

export function ApiReferenceRoute() {
  return (
    <ContentPage
      title="API Reference"
      intro="The Covenant REST API lets your own systems authenticate, create deals and follow their escrow."
    />
  );
}
