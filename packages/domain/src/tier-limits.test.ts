import { describe, expect, it } from 'vitest';
import { exceedsTierLimit, tierLimitMessage, tierLimitUsd, usdValueOf } from './tier-limits.js';

describe('tier limits', () => {
  it('are $10,000 for Basic, $100,000 for Enhanced and per profile for Institutional', () => {
    expect(tierLimitUsd('basic', null)).toBe(10_000n);
    expect(tierLimitUsd('enhanced', 5n)).toBe(100_000n);
    expect(tierLimitUsd('institutional', 25_000_000n)).toBe(25_000_000n);
    expect(tierLimitUsd('institutional', null)).toBeNull();
  });

  it('compare the stable leg exactly against the limit', () => {
    // $10,000 = 10000 × 10^6 USDC base units: exactly at the limit is allowed
    expect(exceedsTierLimit(10_000_000_000n, 'USDC', 10_000n)).toBe(false);
    // $10,000.000001 = 10000000001 base units: one micro-dollar over
    expect(exceedsTierLimit(10_000_000_001n, 'USDT', 10_000n)).toBe(true);
  });

  it('state the value in dollars and the limit in the spec’s sentence', () => {
    expect(usdValueOf(10_000_000_001n, 'USDC')).toBe('10000.000001');
    expect(tierLimitMessage('basic', 10_000n)).toBe(
      'This trade exceeds your Basic tier limit of $10,000 per transaction.',
    );
    expect(tierLimitMessage('institutional', 2_500_000n)).toBe(
      'This trade exceeds your Institutional tier limit of $2,500,000 per transaction.',
    );
  });
});
