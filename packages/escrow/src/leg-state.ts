import type { EscrowLeg, EscrowLegView, LedgerEntry, LegState } from './types.js';

/** What decides a leg's state: its required amount and depth, and what the chain shows for it. */
export interface LegStateInput {
  requiredAmount: bigint;
  requiredConfirmations: number;
  ledger: readonly LedgerEntry[];
}

/**
 * Whether an entry counts as confirmed: marked so by the watcher under the chain's policy (which
 * covers finality), or deep enough by the leg's own depth. Reorged entries never count.
 */
export function isConfirmed(entry: LedgerEntry, requiredConfirmations: number): boolean {
  return (
    entry.status === 'confirmed' ||
    (entry.status === 'pending' && entry.confirmations >= requiredConfirmations)
  );
}

/** Confirmed deposits: the only money that funds a leg. */
export function confirmedDeposits(input: LegStateInput): bigint {
  return input.ledger
    .filter((entry) => entry.kind === 'deposit' && isConfirmed(entry, input.requiredConfirmations))
    .reduce((sum, entry) => sum + entry.amount, 0n);
}

/**
 * What the leg still holds for a payout: its confirmed deposits less everything that has left it or
 * is on its way out (travel paid, payouts, fees, refunds, sweeps, network fees), counted as soon as
 * the ledger has seen it, so a payout built from it never pays out money already gone.
 */
export function heldForPayout(input: LegStateInput): bigint {
  const outgoing = input.ledger
    .filter((entry) => entry.kind !== 'deposit' && entry.status !== 'reorged')
    .reduce((sum, entry) => sum + entry.amount, 0n);
  return confirmedDeposits(input) - outgoing;
}

/**
 * A leg's state, derived from its ledger alone so it can always be recomputed after a restart or a
 * reorg. Settlement outweighs funding: once a payout or fee has been sent the leg is releasing
 * (released when every outgoing entry is confirmed); a refund without any payout is refunding
 * (refunded likewise). Before that, confirmed deposits decide: at least the required amount is
 * funded, anything less partially funded. Travel payouts do not change the state (they leave an
 * open leg before it settles: a funded leg stays funded, its deposits unchanged), nor do sweeps of
 * late deposits; reorged entries are ignored: a settlement dropped by a reorg puts the leg back where
 * its deposits leave it.
 */
export function legState(input: LegStateInput): LegState {
  const live = input.ledger.filter((entry) => entry.status !== 'reorged');
  const settlement = live.filter(
    (entry) => entry.kind === 'payout' || entry.kind === 'fee' || entry.kind === 'refund',
  );
  if (settlement.length > 0) {
    const done = settlement.every((entry) => isConfirmed(entry, input.requiredConfirmations));
    const released = settlement.some((entry) => entry.kind !== 'refund');
    if (released) {
      return done ? 'released' : 'releasing';
    }
    return done ? 'refunded' : 'refunding';
  }
  const deposited = confirmedDeposits(input);
  if (deposited >= input.requiredAmount && deposited > 0n) {
    return 'funded';
  }
  return deposited > 0n ? 'partially_funded' : 'awaiting_deposit';
}

/** A leg as the API shows it: its terms, what arrived (confirmed and pending), its depth and state. */
export function viewLeg(leg: EscrowLeg, ledger: readonly LedgerEntry[]): EscrowLegView {
  const input = {
    requiredAmount: leg.requiredAmount,
    requiredConfirmations: leg.requiredConfirmations,
    ledger,
  };
  const deposits = ledger.filter((entry) => entry.kind === 'deposit' && entry.status !== 'reorged');
  const pending = deposits
    .filter((entry) => !isConfirmed(entry, leg.requiredConfirmations))
    .reduce((sum, entry) => sum + entry.amount, 0n);
  return {
    leg: leg.leg,
    chain: leg.chain,
    symbol: leg.symbol,
    requiredAmount: leg.requiredAmount,
    depositAddress: leg.depositAddress,
    received: confirmedDeposits(input),
    pending,
    confirmations: deposits.length === 0 ? 0 : Math.min(...deposits.map((entry) => entry.confirmations)),
    requiredConfirmations: leg.requiredConfirmations,
    deadline: leg.deadline,
    state: legState(input),
  };
}
