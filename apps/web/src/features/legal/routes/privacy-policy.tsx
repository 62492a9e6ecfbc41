import { LegalDocument } from '../components/legal-document.js';
import { privacyPolicySections } from '../content/privacy-policy.js';

export function PrivacyPolicyRoute() {
  return (
    <LegalDocument
      title="Privacy Policy"
      intro="How Covenant collects, uses and protects personal data, how long we keep it, and how to exercise your rights."
      sections={privacyPolicySections}
    />
  );
}
