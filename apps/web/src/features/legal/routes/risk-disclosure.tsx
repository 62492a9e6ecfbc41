import { ContentPage } from '@/components/layouts/content-page.js';

export function RiskDisclosureRoute() {
  return (
    <ContentPage
      title="Risk Disclosure"
      intro="The risks of trading crypto assets over the counter, which you should understand before you trade."
    />
  );
}
