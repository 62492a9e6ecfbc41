import { describe, expect, it } from 'vitest';
import { lateDepositAction } from './late-deposits.js';

describe('lateDepositAction', () => {
  const settled = { state: 'released' as const, held: 25_000n, canSweep: false, returnInFlight: false };

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
});
