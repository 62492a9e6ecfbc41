import { describe, expect, it } from 'vitest';
import { lateDepositAction } from './late-deposits.js';

describe('lateDepositAction', () => {
  const settled = {
    state: 'released' as const,
    held: 25_000n,
    canSweep: false,
    returnInFlight: false,
    closedWithoutPayout: false,
  };

  it('sweeps on a chain that has a sweep (Ethereum)', () => {
    expect(lateDepositAction({ ...settled, canSweep: true })).toEqual({ kind: 'sweep', amount: 25_000n });
  });

  it('prepares a return payout on a chain without one (Bitcoin), for a released or a refunded leg', () => {
    expect(lateDepositAction(settled)).toEqual({ kind: 'payout', amount: 25_000n });
    expect(lateDepositAction({ ...settled, state: 'refunded' })).toEqual({ kind: 'payout', amount: 25_000n });
  });

  it('does nothing while a return is on its way, or when nothing is held', () => {
    expect(lateDepositAction({ ...settled, returnInFlight: true })).toEqual({ kind: 'none' });
    expect(lateDepositAction({ ...settled, held: 0n })).toEqual({ kind: 'none' });
    expect(lateDepositAction({ ...settled, held: -1n })).toEqual({ kind: 'none' });
  });

  it('leaves a leg that is not settled to its own payout', () => {
    for (const state of ['funded', 'releasing', 'refunding', 'partially_funded'] as const) {
      expect(lateDepositAction({ ...settled, state })).toEqual({ kind: 'none' });
    }
  });

  it('returns by a payout what reaches a leg a closed escrow never paid, even on a chain with a sweep', () => {
    const leftOut = { ...settled, closedWithoutPayout: true, canSweep: true };
    for (const state of ['awaiting_deposit', 'partially_funded', 'funded'] as const) {
      expect(lateDepositAction({ ...leftOut, state })).toEqual({ kind: 'payout', amount: 25_000n });
    }
    expect(lateDepositAction({ ...leftOut, state: 'funded', returnInFlight: true })).toEqual({
      kind: 'none',
    });
    expect(lateDepositAction({ ...leftOut, state: 'funded', held: 0n })).toEqual({ kind: 'none' });
    // A payout of its own on its way: the leg is releasing or refunding, and that payout returns it.
    for (const state of ['releasing', 'refunding'] as const) {
      expect(lateDepositAction({ ...leftOut, state })).toEqual({ kind: 'none' });
    }
    // Once returned, the leg is refunded and settled on-chain: later money is swept as for any settled leg.
    expect(lateDepositAction({ ...leftOut, state: 'refunded' })).toEqual({ kind: 'sweep', amount: 25_000n });
  });
});
