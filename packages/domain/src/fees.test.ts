import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { feeBasisPoints, legPayout, platformFee } from './fees.js';
import { maxBaseUnitsFor } from './trade-limits.js';

describe('platformFee', () => {
  it('is one basis point', () => {
    expect(feeBasisPoints).toBe(1n);
  });

  it.each([
    // 1 WBTC = 100 000 000 sat; 100 000 000 / 10 000 = 10 000 sat
    ['1 WBTC', 100_000_000n, 10_000n],
    // 9 999 / 10 000 = 0.9999, rounded down to 0
    ['9 999 base units', 9_999n, 0n],
    // 10 000 / 10 000 = 1
    ['10 000 base units', 10_000n, 1n],
    // 19 999 / 10 000 = 1.9999, rounded down to 1
    ['19 999 base units', 19_999n, 1n],
    ['nothing', 0n, 0n],
    ['one base unit', 1n, 0n],
    // 60 000.000000 USDT = 60 000 000 000 micro-USDT; / 10 000 = 6 000 000 (6 USDT)
    ['60 000 USDT', 60_000_000_000n, 6_000_000n],
    // 1 ETH = 10^18 wei; / 10^4 = 10^14 wei (0.0001 ETH)
    ['1 ETH', 1_000_000_000_000_000_000n, 100_000_000_000_000n],
    // the largest deal, 1 000 000 BTC = 10^6 × 10^8 = 10^14 sat; / 10^4 = 10^10 sat (100 BTC)
    ['1 000 000 BTC', maxBaseUnitsFor('BTC'), 10_000_000_000n],
    // 1 000 000 ETH = 10^6 × 10^18 = 10^24 wei; / 10^4 = 10^20 wei (100 ETH)
    ['1 000 000 ETH', maxBaseUnitsFor('ETH'), 100_000_000_000_000_000_000n],
    // 1 000 000 SOL = 10^6 × 10^9 = 10^15 lamports; / 10^4 = 10^11 lamports (100 SOL)
    ['1 000 000 SOL', maxBaseUnitsFor('SOL'), 100_000_000_000n],
    // 1 000 000 USDC = 10^6 × 10^6 = 10^12; / 10^4 = 10^8 (100 USDC)
    ['1 000 000 USDC', maxBaseUnitsFor('USDC'), 100_000_000n],
  ])('charges %s (%s) a fee of %s', (_label, amount, fee) => {
    expect(platformFee(amount)).toBe(fee);
  });

  it('refuses a negative amount', () => {
    expect(() => platformFee(-1n)).toThrow(AppError);
    expect(() => platformFee(-1n)).toThrow('An amount cannot be negative');
  });

  it('rounds down and pays the rest out, for thousands of random amounts up to 2^256', () => {
    const random = seededBigints(0x5eed_fee5n);
    for (let i = 0; i < 5_000; i += 1) {
      // Mix magnitudes so small legs (where rounding matters most) are drawn as often as huge ones.
      const bits = random() % 257n;
      const amount = bits === 0n ? 0n : random256() % (1n << bits);
      const fee = platformFee(amount);
      expect(fee * 10_000n <= amount && amount < (fee + 1n) * 10_000n, `amount ${amount}`).toBe(true);
      const excess = random() % 1_000_000n;
      const payout = legPayout(amount, amount + excess, 'ETH');
      expect(payout.receiver + payout.fee, `amount ${amount}`).toBe(amount);
      expect(payout.excessToDepositor).toBe(excess);
    }

    function random256(): bigint {
      return (random() << 192n) | (random() << 128n) | (random() << 64n) | random();
    }
  });
});

describe('legPayout', () => {
  it('pays the receiver the required amount less the fee and returns any excess', () => {
    // 60 000 000 000 required, fee 60 000 000 000 / 10 000 = 6 000 000;
    // receiver 60 000 000 000 − 6 000 000 = 59 994 000 000; excess 60 000 000 123 − 60 000 000 000 = 123
    expect(legPayout(60_000_000_000n, 60_000_000_123n, 'ETH')).toEqual({
      receiver: 59_994_000_000n,
      fee: 6_000_000n,
      excessToDepositor: 123n,
    });
  });

  it('charges the fee on the required amount, not on the excess', () => {
    // 1 BTC required, 2 BTC received: fee 100 000 000 / 10 000 = 10 000 sat (not 20 000);
    // receiver 100 000 000 − 10 000 = 99 990 000; excess 200 000 000 − 100 000 000 = 100 000 000
    expect(legPayout(100_000_000n, 200_000_000n, 'BTC')).toEqual({
      receiver: 99_990_000n,
      fee: 10_000n,
      excessToDepositor: 100_000_000n,
    });
  });

  it('pays an exact deposit with nothing left over', () => {
    // 9 999 lamports owe no fee: receiver 9 999, fee 0
    expect(legPayout(9_999n, 9_999n, 'SOL')).toEqual({ receiver: 9_999n, fee: 0n, excessToDepositor: 0n });
  });

  it('refuses a leg holding less than required, one base unit short', () => {
    let thrown: unknown;
    try {
      legPayout(60_000_000_000n, 59_999_999_999n, 'SOL');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { required: '60000000000', available: '59999999999', chain: 'SOL' },
    });
  });
});

/** A reproducible stream of 64-bit bigints (SplitMix64), so a failing draw can be replayed. */
function seededBigints(seed: bigint): () => bigint {
  const mask = (1n << 64n) - 1n;
  let state = seed & mask;
  return () => {
    state = (state + 0x9e37_79b9_7f4a_7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58_476d_1ce4_e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d0_49bb_1331_11ebn) & mask;
    return z ^ (z >> 31n);
  };
}
