import { describe, expect, it } from 'vitest';
import { formatAmount, formatUsd } from './format-amount.js';
import { parseAmount } from './parse-amount.js';

describe('formatAmount', () => {
  it.each([
    [1n, 8, '0.00000001'],
    [50_000_000n, 8, '0.5'],
    [100_000_000_000_000n, 8, '1000000'],
    [100_000_000_000_001n, 8, '1000000.00000001'],
    [1_500_000_000_000_000_000n, 18, '1.5'],
    [10_000_010_000n, 6, '10000.01'],
    [0n, 6, '0'],
    [-1n, 6, '-0.000001'],
    [42n, 0, '42'],
  ] as const)('%s base units with %i decimals is %s', (value, decimals, expected) => {
    expect(formatAmount(value, decimals)).toBe(expected);
  });

  it('round-trips with parseAmount', () => {
    for (const text of ['0.00000001', '1000000.00000001', '123456789012345678901234567890', '3.14159']) {
      expect(formatAmount(parseAmount(text, 8)!, 8)).toBe(text);
    }
  });
});

describe('formatUsd', () => {
  it.each([
    [0n, '0'],
    [999n, '999'],
    [10_000n, '10,000'],
    [100_000n, '100,000'],
    [25_000_000n, '25,000,000'],
  ] as const)('%s dollars is %s', (value, expected) => {
    expect(formatUsd(value)).toBe(expected);
  });
});
