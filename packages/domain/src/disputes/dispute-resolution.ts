import type { DealAction } from '../deals/deal-transitions.js';
import type { DisputeDecision, DisputeEffect } from './dispute.js';

const resolutions: Record<DisputeDecision, DealAction> = {
  release: 'resolve_release',
  refund: 'resolve_refund',
  split: 'resolve_split',
};

/**
 * How a mediator's decision moves the deal, and what it does. With an escrow, the decision is carried
 * out on it (release and split complete the deal, refund cancels it). A deal disputed before its
 * escrow opened holds no money: whatever was decided, the deal is cancelled (the transition of a
 * refund) and nothing moves, rather than a release "completing" a trade that never happened.
 */
export function disputeResolution(
  decision: DisputeDecision,
  escrowOpened: boolean,
): { action: DealAction; effect: DisputeEffect } {
  if (!escrowOpened) return { action: 'resolve_refund', effect: 'deal_cancelled' };
  return { action: resolutions[decision], effect: 'escrow_payout' };
}
