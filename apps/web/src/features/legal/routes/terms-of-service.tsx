import { LegalDocument } from '../components/legal-document.js';
import { termsOfServiceSections } from '../content/terms-of-service.js';

export function TermsOfServiceRoute() {
  return (
    <LegalDocument
      title="Terms of Service"
      intro="The terms that govern the use of Covenant. You must be at least 18 years old to use the service."
      sections={termsOfServiceSections}
    />
  );
}
