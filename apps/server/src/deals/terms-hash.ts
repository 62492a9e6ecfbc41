import { createHash } from 'node:crypto';
import { canonicalJson, type DealPartyAddresses, type DealTermsVersionTerms } from '@covenant/domain';

export interface AgreedTerms {
  dealId: string;
  version: number;
  terms: DealTermsVersionTerms;
  addresses: { buyer: DealPartyAddresses; seller: DealPartyAddresses };
}

/**
 * The terms hash both parties are shown once they agree: SHA-256 (lower-case hex) over the canonical
 * JSON of `{deal_id, version, terms, addresses: {buyer, seller}}`, each party's addresses as
 * `{payout_address, refund_address}`. docs/audit-trail.md ("Terms hash") documents it for recomputation.
 */
export function hashAgreedTerms(agreed: AgreedTerms): string {
  const content = canonicalJson({
    deal_id: agreed.dealId,
    version: agreed.version,
    terms: { ...agreed.terms },
    addresses: {
      buyer: { ...agreed.addresses.buyer },
      seller: { ...agreed.addresses.seller },
    },
  });
  return createHash('sha256').update(content, 'utf8').digest('hex');
}
