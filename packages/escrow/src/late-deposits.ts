import type { LegState } from './types.js';

/** What to do with money a settled leg still holds. */
export type LateDepositAction =
  /** Nothing: the leg is not settled, holds nothing, or a return is already on its way. */
  | { kind: 'none' }
  /** The chain's own sweep pays it back to the depositor, no signatures needed (Ethereum). */
  | { kind: 'sweep'; amount: bigint }
  /**
   * A payout returning it to the depositor's refund address, for either party to approve (its
   * destination is fixed): chains without a sweep (Bitcoin), and legs a closed escrow never paid.
   */
  | { kind: 'payout'; amount: bigint };

/** States of a leg nothing was ever paid out of (travel aside): its custody is still open on-chain. */
const neverPaidStates: readonly LegState[] = ['awaiting_deposit', 'partially_funded', 'funded'];

/**
 * The rule for a late deposit: a released or refunded leg holding `held` (confirmed deposits minus
 * every confirmed movement out) sends it back — by the chain's sweep where it has one, else by a
 * `late_deposit` refund payout — unless a sweep or such a payout is already on its way.
 *
 * A leg of a closed escrow (settled or refunded) that had no payout of its own — empty when a
 * cancellation or a mediator's decision paid the other leg, funded only afterwards — is treated the
 * same, or its money would stay there: nothing else pays out of a closed escrow. It always goes back
 * by a payout: its custody was never settled, so a sweep cannot serve it (Ethereum's `sweep()`
 * reverts on an unsettled escrow; Solana's sweeps a closed account). On Ethereum that payout is a
 * REFUND, which also lets the deadline refund send it unsigned once the leg's `refund_after` passed.
 */
export function lateDepositAction(input: {
  state: LegState;
  held: bigint;
  canSweep: boolean;
  /** A sweep sent and not yet confirmed, or a late-deposit payout neither confirmed nor failed. */
  returnInFlight: boolean;
  /** The escrow is settled or refunded and this leg had no payout of its own. */
  closedWithoutPayout: boolean;
}): LateDepositAction {
  if (input.held <= 0n || input.returnInFlight) return { kind: 'none' };
  if (input.state === 'released' || input.state === 'refunded') {
    return input.canSweep ? { kind: 'sweep', amount: input.held } : { kind: 'payout', amount: input.held };
  }
  if (input.closedWithoutPayout && neverPaidStates.includes(input.state)) {
    return { kind: 'payout', amount: input.held };
  }
  return { kind: 'none' };
}
