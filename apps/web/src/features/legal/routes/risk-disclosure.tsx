import { LegalDocument } from '../components/legal-document.js';
import { riskDisclosureSections } from '../content/risk-disclosure.js';

export function RiskDisclosureRoute() {
  return (
    <LegalDocument
      title="Risk Disclosure"
      intro="The risks of trading crypto assets over the counter, which you should understand before you trade."
      sections={riskDisclosureSections}
    />
  );
}
