import type { DealParty, DealWithHistory, EscrowStatusView } from '@covenant/domain';
import { partnerName } from '@/features/trading/components/partner-name.js';
import type { ChainView } from '../api/get-chains.js';

/** Who looks at the escrow: their side of the deal, the other side, and how to name either. */
export type EscrowViewer = {
  party: DealParty;
  other: DealParty;
  /** "you" for the viewer, the trader's name for the counterparty. */
  nameOf: (party: DealParty) => string;
  counterparty: string;
};

/** What each part of an opened escrow's panel is drawn from: the deal, who looks, the escrow and the chains. */
export interface EscrowPanelProps {
  deal: DealWithHistory;
  viewer: EscrowViewer;
  escrow: EscrowStatusView;
  chains: readonly ChainView[];
}

/** Null for anyone but the deal's two parties: the escrow is theirs alone. */
export function escrowViewer(deal: DealWithHistory, viewerId: string | undefined): EscrowViewer | null {
  if (!viewerId || (viewerId !== deal.buyer_id && viewerId !== deal.seller_id)) return null;
  const party: DealParty = viewerId === deal.buyer_id ? 'buyer' : 'seller';
  const other: DealParty = party === 'buyer' ? 'seller' : 'buyer';
  const names = { buyer: partnerName(deal.buyer), seller: partnerName(deal.seller) };
  return { party, other, nameOf: (p) => (p === party ? 'you' : names[p]), counterparty: names[other] };
}
