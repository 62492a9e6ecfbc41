import { ContentPage } from '@/components/layouts/content-page.js';

export function DocumentationRoute() {
  return (
    <ContentPage
      title="Documentation"
      intro="Guides to using Covenant: getting started, trading, wallet setup and security."
    />
  );
}
