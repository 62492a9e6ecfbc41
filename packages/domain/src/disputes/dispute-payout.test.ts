import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { disputePayout } from './dispute-payout.js';

// 0.5 BTC (50 000 000 sat) against 30 000 USDC (30 000 000 000 micro-USDC).
const legs = { asset: 50_000_000n, stable: 30_000_000_000n };

describe('disputePayout', () => {
  it('releases per terms: the asset to the buyer, the stable to the seller', () => {
    expect(disputePayout(legs, 'release')).toEqual({
      asset: { buyer: 50_000_000n, seller: 0n },
      stable: { buyer: 0n, seller: 30_000_000_000n },
    });
  });

  it('refunds each deposit to whoever made it', () => {
    expect(disputePayout(legs, 'refund')).toEqual({
      asset: { buyer: 0n, seller: 50_000_000n },
      stable: { buyer: 30_000_000_000n, seller: 0n },
    });
  });

  it('takes a split whose amounts add up exactly to each leg', () => {
    // 20 000 000 + 30 000 000 = 50 000 000; 29 999 999 999 + 1 = 30 000 000 000
    const split = {
      asset: { buyer: 20_000_000n, seller: 30_000_000n },
      stable: { buyer: 29_999_999_999n, seller: 1n },
    };
    expect(disputePayout(legs, 'split', split)).toEqual(split);
  });

  it('refuses a split one base unit off, naming the leg', () => {
    const split = {
      asset: { buyer: 20_000_000n, seller: 30_000_000n },
      // 15 000 000 000 + 15 000 000 001 = 30 000 000 001
      stable: { buyer: 15_000_000_000n, seller: 15_000_000_001n },
    };
    let thrown: unknown;
    try {
      disputePayout(legs, 'split', split);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: {
        issues: [{ path: '/split/stable', expected: '30000000000', actual: '30000000001' }],
      },
    });
  });

  it('refuses a split without amounts', () => {
    expect(() => disputePayout(legs, 'split')).toThrow('A split needs the amounts per leg');
  });
});
