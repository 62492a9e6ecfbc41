import { describe, expect, it } from 'vitest';
import { heldForPayout, isConfirmed, legState, viewLeg } from './leg-state.js';
import type { EscrowLeg, LedgerEntry, LedgerEntryKind, LedgerEntryStatus } from './types.js';

let nextPosition = 0;

function entry(
  kind: LedgerEntryKind,
  amount: bigint,
  status: LedgerEntryStatus,
  confirmations = status === 'confirmed' ? 12 : 0,
): LedgerEntry {
  nextPosition += 1;
  return {
    kind,
    amount,
    txRef: `0xtx${nextPosition}`,
    position: nextPosition,
    blockRef: status === 'pending' && confirmations === 0 ? null : `0xblock${nextPosition}`,
    height: status === 'pending' && confirmations === 0 ? null : BigInt(100 + nextPosition),
    confirmations,
    status,
  };
}

// 1 WETH (10^18 wei) required, 12 confirmations.
const required = 1_000_000_000_000_000_000n;
const state = (...ledger: LedgerEntry[]) =>
  legState({ requiredAmount: required, requiredConfirmations: 12, ledger });

describe('isConfirmed', () => {
  it('counts an entry marked confirmed, or a pending one deep enough, never a reorged one', () => {
    expect(isConfirmed(entry('deposit', 1n, 'confirmed'), 12)).toBe(true);
    expect(isConfirmed(entry('deposit', 1n, 'pending', 12), 12)).toBe(true);
    expect(isConfirmed(entry('deposit', 1n, 'pending', 11), 12)).toBe(false);
    expect(isConfirmed(entry('deposit', 1n, 'reorged', 40), 12)).toBe(false);
  });
});

describe('heldForPayout', () => {
  it('is the confirmed deposits less whatever has left the leg or is leaving it', () => {
    const held = (...ledger: LedgerEntry[]) =>
      heldForPayout({ requiredAmount: required, requiredConfirmations: 12, ledger });
    // 1 WETH confirmed + 0.5 WETH seen but not deep enough: only the first counts.
    expect(held(entry('deposit', required, 'confirmed'), entry('deposit', required / 2n, 'pending', 3))).toBe(
      required,
    );
    // A travel payment of 0.2 WETH (mined, not yet deep) and a fee of 0.0001 already left:
    //   10^18 − 2×10^17 − 10^14 = 799 900 000 000 000 000.
    expect(
      held(
        entry('deposit', required, 'confirmed'),
        entry('travel', 200_000_000_000_000_000n, 'pending', 1),
        entry('fee', 100_000_000_000_000n, 'confirmed'),
      ),
    ).toBe(799_900_000_000_000_000n);
    // A settled leg that later received 25 000 wei more holds those 25 000, not the whole deposit;
    // a payout undone by a reorg left nothing.
    expect(
      held(
        entry('deposit', required, 'confirmed'),
        entry('payout', required - 100_000_000_000_000n, 'confirmed'),
        entry('fee', 100_000_000_000_000n, 'confirmed'),
        entry('payout', 5n, 'reorged'),
        entry('deposit', 25_000n, 'confirmed'),
      ),
    ).toBe(25_000n);
  });
});

describe('legState', () => {
  it('awaits a deposit while the ledger is empty', () => {
    expect(state()).toBe('awaiting_deposit');
  });

  it('still awaits a deposit that is seen but not confirmed', () => {
    expect(state(entry('deposit', required, 'pending', 3))).toBe('awaiting_deposit');
  });

  it('is partially funded by a confirmed deposit short of the amount', () => {
    // 10^18 − 1 wei confirmed: one wei short
    expect(state(entry('deposit', required - 1n, 'confirmed'))).toBe('partially_funded');
  });

  it('stays partially funded while the rest is still pending', () => {
    // 0.6 + 0.4 ETH, the 0.4 at 11 of 12 confirmations
    expect(
      state(
        entry('deposit', 600_000_000_000_000_000n, 'confirmed'),
        entry('deposit', 400_000_000_000_000_000n, 'pending', 11),
      ),
    ).toBe('partially_funded');
  });

  it('is funded once confirmed deposits reach the amount, in one deposit or several', () => {
    expect(state(entry('deposit', required, 'confirmed'))).toBe('funded');
    // 0.6 + 0.4 = 1.0 ETH, the 0.4 exactly 12 deep
    expect(
      state(
        entry('deposit', 600_000_000_000_000_000n, 'confirmed'),
        entry('deposit', 400_000_000_000_000_000n, 'pending', 12),
      ),
    ).toBe('funded');
  });

  it('is funded when over-funded', () => {
    expect(state(entry('deposit', required + 1n, 'confirmed'))).toBe('funded');
  });

  it('ignores a reorged deposit: funded falls back to what remains', () => {
    expect(state(entry('deposit', required, 'reorged', 5))).toBe('awaiting_deposit');
    expect(state(entry('deposit', required, 'reorged', 5), entry('deposit', 1n, 'confirmed'))).toBe(
      'partially_funded',
    );
  });

  it('is releasing while a payout or fee is pending, released when all are confirmed', () => {
    const deposit = entry('deposit', required, 'confirmed');
    expect(state(deposit, entry('payout', required - 100_000_000_000_000n, 'pending'))).toBe('releasing');
    expect(
      state(
        deposit,
        entry('payout', required - 100_000_000_000_000n, 'confirmed'),
        entry('fee', 100_000_000_000_000n, 'pending', 2),
      ),
    ).toBe('releasing');
    expect(
      state(
        deposit,
        entry('payout', required - 100_000_000_000_000n, 'confirmed'),
        entry('fee', 100_000_000_000_000n, 'confirmed'),
      ),
    ).toBe('released');
  });

  it('counts the excess refunded at settlement as part of the release', () => {
    const deposit = entry('deposit', required + 5n, 'confirmed');
    const payout = entry('payout', required - 100_000_000_000_000n, 'confirmed');
    const fee = entry('fee', 100_000_000_000_000n, 'confirmed');
    expect(state(deposit, payout, fee, entry('refund', 5n, 'pending'))).toBe('releasing');
    expect(state(deposit, payout, fee, entry('refund', 5n, 'confirmed'))).toBe('released');
  });

  it('is refunding while a refund is pending, refunded once confirmed', () => {
    const deposit = entry('deposit', 400n, 'confirmed');
    expect(state(deposit, entry('refund', 400n, 'pending'))).toBe('refunding');
    expect(state(deposit, entry('refund', 400n, 'confirmed'))).toBe('refunded');
  });

  it('is released, not refunded, by a split paying both parties', () => {
    expect(
      state(
        entry('deposit', required, 'confirmed'),
        entry('payout', 1_000n, 'confirmed'),
        entry('refund', required - 1_000n, 'confirmed'),
      ),
    ).toBe('released');
  });

  it('keeps the settled state when a late deposit arrives and is swept back', () => {
    const settled = [entry('deposit', 400n, 'confirmed'), entry('refund', 400n, 'confirmed')];
    expect(state(...settled, entry('deposit', 7n, 'confirmed'))).toBe('refunded');
    expect(state(...settled, entry('deposit', 7n, 'confirmed'), entry('sweep', 7n, 'pending'))).toBe(
      'refunded',
    );
  });

  it('goes back to funded when a reorg drops the payout', () => {
    expect(
      state(
        entry('deposit', required, 'confirmed'),
        entry('payout', required, 'reorged', 1),
        entry('fee', 1n, 'reorged', 1),
      ),
    ).toBe('funded');
  });

  it('does not let a sweep alone settle a leg', () => {
    expect(state(entry('deposit', required, 'confirmed'), entry('sweep', 1n, 'confirmed'))).toBe('funded');
  });
});

describe('legState with travel', () => {
  it('keeps a funded leg funded however much travel left it, pending or confirmed', () => {
    // 1 WETH deposited, 0.4 WETH of travel paid to a provider, then 0.1 WETH more pending.
    const deposit = entry('deposit', required, 'confirmed');
    expect(state(deposit, entry('travel', 400_000_000_000_000_000n, 'confirmed'))).toBe('funded');
    expect(
      state(
        deposit,
        entry('travel', 400_000_000_000_000_000n, 'confirmed'),
        entry('travel', 100_000_000_000_000_000n, 'pending', 1),
      ),
    ).toBe('funded');
  });

  it('settles only with the release that follows travel', () => {
    const deposit = entry('deposit', required, 'confirmed');
    const travel = entry('travel', 1_000n, 'confirmed');
    expect(state(deposit, travel, entry('payout', 999_899_999_999_999_000n, 'pending', 1))).toBe('releasing');
    expect(
      state(
        deposit,
        travel,
        entry('payout', 999_899_999_999_999_000n, 'confirmed'),
        entry('fee', 100_000_000_000_000n, 'confirmed'),
      ),
    ).toBe('released');
    // A refund after travel refunds the leg.
    expect(state(deposit, travel, entry('refund', required - 1_000n, 'confirmed'))).toBe('refunded');
  });
});

describe('viewLeg', () => {
  const leg: EscrowLeg = {
    escrowId: 'escrow-1',
    leg: 'stable',
    chain: 'ETH',
    symbol: 'USDC',
    tokenAddress: '0xUsdc',
    requiredAmount: 60_000_000_000n,
    depositAddress: '0xDeposit',
    depositorRefundAddress: '0xBuyerRefund',
    receiverPayoutAddress: '0xSellerPayout',
    requiredConfirmations: 12,
    refundAfter: null,
    deadline: new Date('2026-11-23T00:00:00Z'),
    signers: { buyer: '0xBuyerKey', seller: '0xSellerKey', platform: '0xPlatformKey' },
  };

  it('shows confirmed and pending amounts separately, and the shallowest depth', () => {
    // 50 000 USDC confirmed (15 deep) + 10 000 USDC pending (4 deep); a reorged 1 USDC is not shown
    const view = viewLeg(leg, [
      entry('deposit', 50_000_000_000n, 'confirmed', 15),
      entry('deposit', 10_000_000_000n, 'pending', 4),
      entry('deposit', 1_000_000n, 'reorged', 2),
    ]);
    expect(view).toEqual({
      leg: 'stable',
      chain: 'ETH',
      symbol: 'USDC',
      requiredAmount: 60_000_000_000n,
      depositAddress: '0xDeposit',
      received: 50_000_000_000n,
      pending: 10_000_000_000n,
      confirmations: 4,
      requiredConfirmations: 12,
      deadline: new Date('2026-11-23T00:00:00Z'),
      state: 'partially_funded',
    });
  });

  it('shows no depth before any deposit', () => {
    expect(viewLeg(leg, [])).toMatchObject({
      received: 0n,
      pending: 0n,
      confirmations: 0,
      state: 'awaiting_deposit',
    });
  });
});
