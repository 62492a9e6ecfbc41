import type { EscrowStatusLegView } from '@covenant/domain';
import { formatDealAmount } from '@/features/trading/components/format-deal-amount.js';
import type { EscrowViewer } from './escrow-viewer.js';

export const legTitles = { asset: 'asset leg', stable: 'stablecoin leg' } as const;

/** Payout statuses of a payout on its way out of its leg, or out of it. */
const gone = new Set(['submitting', 'submitted', 'confirmed']);

/** Whether a leg's settlement payout (not a refund) has been sent: the settlement is under way. */
export function settlementUnderWay(legs: readonly Pick<EscrowStatusLegView, 'payout'>[]): boolean {
  return legs.some(
    (leg) => leg.payout !== null && leg.payout.kind !== 'refund' && gone.has(leg.payout.status),
  );
}

/** Whether a leg other than `leg` has had its settlement payout sent: `leg` is then owed. */
export function otherLegPaid(
  legs: readonly Pick<EscrowStatusLegView, 'leg' | 'payout'>[],
  leg: Pick<EscrowStatusLegView, 'leg'>,
): boolean {
  return settlementUnderWay(legs.filter((other) => other.leg !== leg.leg));
}

/**
 * What the viewer approves, in one sentence: a refund; a settlement leg, paid only once the other
 * leg is approved too; or a leg owed because the other has been paid already (either party may then
 * approve it, the one it pays included).
 */
export function approvalSentence(
  leg: Pick<EscrowStatusLegView, 'leg' | 'amount' | 'symbol' | 'payout'>,
  viewer: EscrowViewer,
  owed: boolean,
): string {
  const what = `the ${legTitles[leg.leg]}’s ${formatDealAmount(leg.amount, leg.symbol)}`;
  if (leg.payout?.kind === 'refund') return `You approve returning ${what}, exactly as below.`;
  if (owed) {
    return `The other leg has been paid out, so this one is owed: you approve paying out ${what}, exactly as below.`;
  }
  return `You approve paying out ${what}, exactly as below. The escrow pays only once ${viewer.counterparty} has confirmed the other leg too.`;
}
