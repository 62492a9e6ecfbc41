import type { Chain } from '@covenant/domain';
import { isConfirmed } from './leg-state.js';
import type { LedgerEntry, LedgerEntryKind, Leg, LegState } from './types.js';

export interface LegReconciliationInput {
  escrowId: string;
  leg: Leg;
  chain: Chain;
  state: LegState;
  requiredConfirmations: number;
  ledger: readonly LedgerEntry[];
  /** What the deposit address holds on-chain at the confirmation depth, when the adapter read it. */
  heldBalance?: bigint;
  /**
   * On a chain whose payouts name the deposit outputs they spend (UTXO): the confirmed outputs no
   * payout spent. A settled leg may hold exactly these (a payout capped at `maxPayoutInputs`, or a
   * deposit that came while it was on its way): they go back to the depositor as late deposits.
   */
  unspentDeposits?: bigint;
}

export type ReconciliationProblem =
  /** More left the escrow than ever came in: an entry is missing or wrong. */
  | 'paid_out_more_than_deposited'
  /** A settled leg still holds money: a late deposit not yet swept back, or an outgoing entry missing. */
  | 'settled_with_balance_left'
  /** The chain's balance differs from what the ledger leaves. */
  | 'balance_differs_from_ledger';

/** A leg whose books do not balance, with every total as a base-unit string for the staff alert. */
export interface ReconciliationMismatch {
  escrowId: string;
  leg: Leg;
  chain: Chain;
  problem: ReconciliationProblem;
  details: {
    state: LegState;
    deposits: string;
    payouts: string;
    fees: string;
    refunds: string;
    sweeps: string;
    /** What UTXO-chain payouts left to miners. */
    network_fees: string;
    /** What travel payouts paid to providers before settlement. */
    travel: string;
    /** What the ledger says should still be held: deposits − travel − payouts − fees − refunds − sweeps − network fees. */
    expected_held: string;
    /** The on-chain reading, null when none was taken. */
    held: string | null;
  };
}

const settledStates: readonly LegState[] = ['released', 'refunded'];

/**
 * Checks one leg's books from its confirmed ledger: confirmed deposits = travel + payouts + fees +
 * refunds + sweeps + network fees + what the escrow still holds (travel payouts leave a leg before
 * it settles, so an open leg holds deposits − travel). What it holds must match the on-chain reading when there
 * is one, and be nothing once the leg is settled (released or refunded) — or, on a UTXO chain,
 * exactly the deposit outputs no payout spent (`unspentDeposits`), on their way back as late
 * deposits. Returns null when the books balance.
 */
export function reconcileLeg(input: LegReconciliationInput): ReconciliationMismatch | null {
  const total = (kind: LedgerEntryKind) =>
    input.ledger
      .filter((entry) => entry.kind === kind && isConfirmed(entry, input.requiredConfirmations))
      .reduce((sum, entry) => sum + entry.amount, 0n);
  const totals = {
    deposits: total('deposit'),
    payouts: total('payout'),
    fees: total('fee'),
    refunds: total('refund'),
    sweeps: total('sweep'),
    networkFees: total('network_fee'),
    travel: total('travel'),
  };
  const expectedHeld =
    totals.deposits -
    totals.travel -
    totals.payouts -
    totals.fees -
    totals.refunds -
    totals.sweeps -
    totals.networkFees;
  const problem = findProblem(
    expectedHeld,
    settledStates.includes(input.state),
    input.heldBalance,
    input.unspentDeposits ?? 0n,
  );
  if (problem === null) {
    return null;
  }
  return {
    escrowId: input.escrowId,
    leg: input.leg,
    chain: input.chain,
    problem,
    details: {
      state: input.state,
      deposits: totals.deposits.toString(),
      payouts: totals.payouts.toString(),
      fees: totals.fees.toString(),
      refunds: totals.refunds.toString(),
      sweeps: totals.sweeps.toString(),
      network_fees: totals.networkFees.toString(),
      travel: totals.travel.toString(),
      expected_held: expectedHeld.toString(),
      held: input.heldBalance === undefined ? null : input.heldBalance.toString(),
    },
  };
}

/** Every leg whose books do not balance. */
export function reconcileLegs(inputs: readonly LegReconciliationInput[]): ReconciliationMismatch[] {
  return inputs.flatMap((input) => {
    const mismatch = reconcileLeg(input);
    return mismatch ? [mismatch] : [];
  });
}

function findProblem(
  expectedHeld: bigint,
  settled: boolean,
  heldBalance: bigint | undefined,
  unspentDeposits: bigint,
): ReconciliationProblem | null {
  if (expectedHeld < 0n) {
    return 'paid_out_more_than_deposited';
  }
  if (heldBalance !== undefined && heldBalance !== expectedHeld) {
    return 'balance_differs_from_ledger';
  }
  return settled && expectedHeld !== 0n && expectedHeld !== unspentDeposits
    ? 'settled_with_balance_left'
    : null;
}
