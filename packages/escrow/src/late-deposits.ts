import type { LegState } from './types.js';

/** What to do with money a settled leg still holds. */
export type LateDepositAction =
  /** Nothing: the leg is not settled, holds nothing, or a return is already on its way. */
  | { kind: 'none' }
  /** The chain's own sweep pays it back to the depositor, no signatures needed (Ethereum). */
  | { kind: 'sweep'; amount: bigint }
  /**
   * A payout returning it to the depositor's refund address, for either party to approve (its
   * destination is fixed): chains without a sweep (Bitcoin).
   */
  | { kind: 'payout'; amount: bigint };

/**
 * The rule for a late deposit: a released or refunded leg holding `held` (confirmed deposits minus
 * every confirmed movement out) sends it back — by the chain's sweep where it has one, else by a
 * `late_deposit` refund payout — unless a sweep or such a payout is already on its way.
 */
export function lateDepositAction(input: {
  state: LegState;
  held: bigint;
  canSweep: boolean;
  /** A sweep sent and not yet confirmed, or a late-deposit payout neither confirmed nor failed. */
  returnInFlight: boolean;
}): LateDepositAction {
  if (input.state !== 'released' && input.state !== 'refunded') return { kind: 'none' };
  if (input.held <= 0n || input.returnInFlight) return { kind: 'none' };
  return input.canSweep ? { kind: 'sweep', amount: input.held } : { kind: 'payout', amount: input.held };
}
