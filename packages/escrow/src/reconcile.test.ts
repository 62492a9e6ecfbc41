import { describe, expect, it } from 'vitest';
import { type LegReconciliationInput, reconcileLeg, reconcileLegs } from './reconcile.js';
import type { LedgerEntry, LedgerEntryKind, LedgerEntryStatus } from './types.js';

let nextPosition = 0;

function entry(kind: LedgerEntryKind, amount: bigint, status: LedgerEntryStatus = 'confirmed'): LedgerEntry {
  nextPosition += 1;
  return {
    kind,
    amount,
    txRef: `0xtx${nextPosition}`,
    position: nextPosition,
    blockRef: `0xblock${nextPosition}`,
    height: BigInt(nextPosition),
    confirmations: status === 'confirmed' ? 12 : 1,
    status,
  };
}

// A 60 000 USDT leg (60 000 000 000 base units) over-funded by 500 and released:
// fee 60 000 000 000 / 10 000 = 6 000 000; seller 60 000 000 000 − 6 000 000 = 59 994 000 000; excess 500 back.
const released: LegReconciliationInput = {
  escrowId: 'escrow-1',
  leg: 'stable',
  chain: 'ETH',
  state: 'released',
  requiredConfirmations: 12,
  ledger: [
    entry('deposit', 60_000_000_500n),
    entry('payout', 59_994_000_000n),
    entry('fee', 6_000_000n),
    entry('refund', 500n),
  ],
};

describe('reconcileLeg', () => {
  it('balances a released leg: 60 000 000 500 in = 59 994 000 000 + 6 000 000 + 500 out', () => {
    expect(reconcileLeg(released)).toBeNull();
    expect(reconcileLeg({ ...released, heldBalance: 0n })).toBeNull();
  });

  it('flags a released leg whose fee is missing, with every total', () => {
    // 60 000 000 500 − 59 994 000 000 − 500 = 6 000 000 left behind
    const ledger = released.ledger.filter((row) => row.kind !== 'fee');
    expect(reconcileLeg({ ...released, ledger })).toEqual({
      escrowId: 'escrow-1',
      leg: 'stable',
      chain: 'ETH',
      problem: 'settled_with_balance_left',
      details: {
        state: 'released',
        deposits: '60000000500',
        payouts: '59994000000',
        fees: '0',
        refunds: '500',
        sweeps: '0',
        expected_held: '6000000',
        held: null,
      },
    });
  });

  it('flags more paid out than deposited', () => {
    // 100 in, 60 + 50 = 110 out
    const mismatch = reconcileLeg({
      ...released,
      state: 'releasing',
      ledger: [entry('deposit', 100n), entry('payout', 60n), entry('refund', 50n)],
    });
    expect(mismatch).toMatchObject({
      problem: 'paid_out_more_than_deposited',
      details: { expected_held: '-10' },
    });
  });

  it('balances a funded leg holding exactly its confirmed deposits, pending ones aside', () => {
    const funded: LegReconciliationInput = {
      ...released,
      state: 'funded',
      ledger: [entry('deposit', 60_000_000_000n), entry('deposit', 9n, 'pending')],
    };
    expect(reconcileLeg(funded)).toBeNull();
    expect(reconcileLeg({ ...funded, heldBalance: 60_000_000_000n })).toBeNull();
  });

  it('flags a funded leg whose on-chain balance differs from its ledger', () => {
    // the chain holds 59 999 999 000, the ledger says 60 000 000 000: 1 000 unaccounted for
    const mismatch = reconcileLeg({
      ...released,
      state: 'funded',
      ledger: [entry('deposit', 60_000_000_000n)],
      heldBalance: 59_999_999_000n,
    });
    expect(mismatch).toMatchObject({
      problem: 'balance_differs_from_ledger',
      details: { expected_held: '60000000000', held: '59999999000' },
    });
  });

  it('ignores reorged entries on both sides', () => {
    expect(
      reconcileLeg({
        ...released,
        ledger: [...released.ledger, entry('deposit', 77n, 'reorged'), entry('sweep', 77n, 'reorged')],
      }),
    ).toBeNull();
  });

  it('flags a late deposit on a settled leg until it is swept back', () => {
    const late = entry('deposit', 1_234n);
    expect(reconcileLeg({ ...released, ledger: [...released.ledger, late] })).toMatchObject({
      problem: 'settled_with_balance_left',
      details: { deposits: '60000001734', expected_held: '1234' },
    });
    expect(
      reconcileLeg({ ...released, ledger: [...released.ledger, late, entry('sweep', 1_234n)] }),
    ).toBeNull();
  });

  it('balances a refunded leg: 25 000 000 000 in, 25 000 000 000 back', () => {
    expect(
      reconcileLeg({
        ...released,
        state: 'refunded',
        ledger: [entry('deposit', 25_000_000_000n), entry('refund', 25_000_000_000n)],
      }),
    ).toBeNull();
  });
});

describe('reconcileLegs', () => {
  it('returns only the legs that do not balance', () => {
    const broken = { ...released, escrowId: 'escrow-2', ledger: [entry('deposit', 5n)] };
    expect(reconcileLegs([released, broken]).map((mismatch) => mismatch.escrowId)).toEqual(['escrow-2']);
  });
});
