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

  it('lets a settled Bitcoin leg hold exactly the deposit outputs no payout spent, and nothing else', () => {
    // 1 BTC paid as 105 000 000 spent by the release (3 outputs) and 2 000 000 left unspent (2 outputs):
    // 107 000 000 in = 99 989 162 payout + 10 000 fee + 5 000 000 refund + 838 network fee + 2 000 000 held.
    const bitcoin: LegReconciliationInput = {
      escrowId: 'escrow-2',
      leg: 'asset',
      chain: 'BTC',
      state: 'released',
      requiredConfirmations: 12,
      ledger: [
        entry('deposit', 105_000_000n),
        entry('deposit', 2_000_000n),
        entry('payout', 99_989_162n),
        entry('fee', 10_000n),
        entry('refund', 5_000_000n),
        entry('network_fee', 838n),
      ],
    };
    expect(reconcileLeg({ ...bitcoin, unspentDeposits: 2_000_000n })).toBeNull();
    // Without it, or with a different amount unspent, 2 000 000 are unaccounted for.
    expect(reconcileLeg(bitcoin)?.problem).toBe('settled_with_balance_left');
    expect(reconcileLeg({ ...bitcoin, unspentDeposits: 1_000_000n })?.problem).toBe(
      'settled_with_balance_left',
    );
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
        network_fees: '0',
        travel: '0',
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

// A Bitcoin leg of 0.5 BTC (50 000 000 sat) deposited in two outputs, 30 000 000 + 20 000 000, and
// released in one transaction: fee 50 000 000 / 10 000 = 5 000 sat; the network fee, 1 410 sat,
// comes out of the recipient's output: 50 000 000 − 5 000 − 1 410 = 49 993 590 to the buyer.
const bitcoinReleased: LegReconciliationInput = {
  escrowId: 'escrow-btc',
  leg: 'asset',
  chain: 'BTC',
  state: 'released',
  requiredConfirmations: 2,
  ledger: [
    entry('deposit', 30_000_000n),
    entry('deposit', 20_000_000n),
    entry('payout', 49_993_590n),
    entry('fee', 5_000n),
    entry('network_fee', 1_410n),
  ],
};

describe('reconcileLeg with network fees', () => {
  it('balances a Bitcoin release: 30 000 000 + 20 000 000 in = 49 993 590 + 5 000 + 1 410 out', () => {
    expect(reconcileLeg(bitcoinReleased)).toBeNull();
    expect(reconcileLeg({ ...bitcoinReleased, heldBalance: 0n })).toBeNull();
  });

  it('flags a Bitcoin release whose network fee is missing: 50 000 000 − 49 993 590 − 5 000 = 1 410 left', () => {
    const ledger = bitcoinReleased.ledger.filter((row) => row.kind !== 'network_fee');
    expect(reconcileLeg({ ...bitcoinReleased, ledger })).toMatchObject({
      problem: 'settled_with_balance_left',
      details: {
        deposits: '50000000',
        payouts: '49993590',
        fees: '5000',
        network_fees: '0',
        travel: '0',
        expected_held: '1410',
      },
    });
  });

  it('flags a network fee counted twice: 50 000 000 − 49 993 590 − 5 000 − 2 × 1 410 = −1 410', () => {
    const ledger = [...bitcoinReleased.ledger, entry('network_fee', 1_410n)];
    expect(reconcileLeg({ ...bitcoinReleased, ledger })).toMatchObject({
      problem: 'paid_out_more_than_deposited',
      details: { network_fees: '2820', expected_held: '-1410' },
    });
  });

  it('does not count a pending network fee: a refund of 10 000 000 sat with 700 sat to the miner still in the mempool', () => {
    // Confirmed: 10 000 000 in, 9 999 300 out; the pending 700 leaves 700 expected held.
    const ledger = [
      entry('deposit', 10_000_000n),
      entry('refund', 9_999_300n),
      entry('network_fee', 700n, 'pending'),
    ];
    expect(reconcileLeg({ ...bitcoinReleased, state: 'refunding', ledger })).toBeNull();
    expect(reconcileLeg({ ...bitcoinReleased, state: 'refunded', ledger })).toMatchObject({
      problem: 'settled_with_balance_left',
      details: { refunds: '9999300', network_fees: '0', expected_held: '700' },
    });
  });
});

describe('reconcileLeg with travel', () => {
  // The worked example: a 100 000 USDC leg (100 000 000 000 units) deposited exactly, a 2 000 USDC
  // hotel (2 000 000 000) paid out of it, then released with the seller bearing the hotel:
  // receiver 100 000 000 000 − 10 000 000 − 2 000 000 000 = 97 990 000 000, fee 10 000 000.
  const travelled: LegReconciliationInput = {
    escrowId: 'escrow-2',
    leg: 'stable',
    chain: 'ETH',
    state: 'funded',
    requiredConfirmations: 12,
    ledger: [entry('deposit', 100_000_000_000n), entry('travel', 2_000_000_000n)],
  };

  it('counts travel as money that left an open leg: it holds deposits − travel', () => {
    // 100 000 000 000 − 2 000 000 000 = 98 000 000 000 held.
    expect(reconcileLeg({ ...travelled, heldBalance: 98_000_000_000n })).toBeNull();
    expect(reconcileLeg({ ...travelled, heldBalance: 100_000_000_000n })).toMatchObject({
      problem: 'balance_differs_from_ledger',
      details: { travel: '2000000000', expected_held: '98000000000', held: '100000000000' },
    });
  });

  it('balances the release after travel: deposits = travel + payout + fee', () => {
    const ledger = [...travelled.ledger, entry('payout', 97_990_000_000n), entry('fee', 10_000_000n)];
    expect(reconcileLeg({ ...travelled, state: 'released', ledger, heldBalance: 0n })).toBeNull();
    // Without the travel entry the 2 000 000 000 would look left behind.
    const withoutTravel = ledger.filter((row) => row.kind !== 'travel');
    expect(reconcileLeg({ ...travelled, state: 'released', ledger: withoutTravel })).toMatchObject({
      problem: 'settled_with_balance_left',
      details: { travel: '0', expected_held: '2000000000' },
    });
  });

  it('flags travel paid beyond the deposits', () => {
    const ledger = [entry('deposit', 1_000n), entry('travel', 1_001n)];
    expect(reconcileLeg({ ...travelled, ledger })).toMatchObject({
      problem: 'paid_out_more_than_deposited',
      details: { deposits: '1000', travel: '1001', expected_held: '-1' },
    });
  });

  it('ignores travel not yet confirmed', () => {
    const ledger = [entry('deposit', 5_000n), entry('travel', 1_000n, 'pending')];
    expect(reconcileLeg({ ...travelled, ledger, heldBalance: 5_000n })).toBeNull();
  });
});
