import type { DealParty, DealWithHistory } from '@covenant/domain';
import { partnerName } from '@/features/trading/components/partner-name.js';

/** Who looks at the escrow: their side of the deal, the other side, and how to name either. */
export type EscrowViewer = {
  party: DealParty;
  other: DealParty;
  /** "you" for the viewer, the trader's name for the counterparty. */
  nameOf: (party: DealParty) => string;
  counterparty: string;
};

/** Null for anyone but the deal's two parties: the escrow is theirs alone. */
export function escrowViewer(deal: DealWithHistory, viewerId: string | undefined): EscrowViewer | null {
  if (!viewerId || (viewerId !== deal.buyer_id && viewerId !== deal.seller_id)) return null;
  const party: DealParty = viewerId === deal.buyer_id ? 'buyer' : 'seller';
  const other: DealParty = party === 'buyer' ? 'seller' : 'buyer';
  const names = { buyer: partnerName(deal.buyer), seller: partnerName(deal.seller) };
  return { party, other, nameOf: (p) => (p === party ? 'you' : names[p]), counterparty: names[other] };
}
