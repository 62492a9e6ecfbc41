import { describe, expect, it } from 'vitest';
import { parseAmount, parseBaseUnits } from './parse-amount.js';

describe('parseAmount', () => {
  it.each([
    // 0.00000001 BTC = 1 satoshi: 0.00000001 × 10^8 = 1
    ['0.00000001', 8, 1n],
    // 1000000 BTC = 1000000 × 10^8 = 100000000000000 satoshi
    ['1000000', 8, 100_000_000_000_000n],
    // 1000000.00000001 BTC = 100000000000000 + 1 satoshi; exact, where a float would round it away
    ['1000000.00000001', 8, 100_000_000_000_001n],
    // 0.5 BTC = 50000000 satoshi (the spec's example)
    ['0.5', 8, 50_000_000n],
    // 1.5 ETH = 1.5 × 10^18 wei
    ['1.5', 18, 1_500_000_000_000_000_000n],
    // 10000.01 USDC = 10000.01 × 10^6 = 10000010000
    ['10000.01', 6, 10_000_010_000n],
    ['.25', 6, 250_000n],
    ['7.', 6, 7_000_000n],
    ['0', 6, 0n],
    ['000123', 0, 123n],
    // 30 digits of whole tokens stay exact: 123456789012345678901234567890 × 10^6
    ['123456789012345678901234567890', 6, 123_456_789_012_345_678_901_234_567_890_000_000n],
  ] as const)('%s with %i decimals is %s base units', (text, decimals, expected) => {
    expect(parseAmount(text, decimals)).toBe(expected);
  });

  it.each([
    ['-1', 'a sign'],
    ['+1', 'a sign'],
    ['-0.00000001', 'a negative amount'],
    ['1e6', 'exponent notation'],
    ['1E-8', 'exponent notation'],
    ['0.000000001', 'nine fraction digits for an eight-decimal token'],
    ['', 'nothing'],
    ['.', 'a lone dot'],
    [' 1', 'whitespace'],
    ['1 000', 'grouping'],
    ['1,5', 'a comma'],
    ['1.2.3', 'two dots'],
    ['0x10', 'hex'],
    ['Infinity', 'words'],
    ['NaN', 'words'],
  ])('refuses %j (%s)', (text) => {
    expect(parseAmount(text, 8)).toBeNull();
  });

  it('refuses amounts too long for numeric(78,0)', () => {
    // 61 whole digits + 18 decimals = 79 digits of wei
    expect(parseAmount('1'.repeat(61), 18)).toBeNull();
    expect(parseAmount('1'.repeat(60), 18)).toBe(BigInt(`${'1'.repeat(60)}${'0'.repeat(18)}`));
  });
});

describe('parseBaseUnits', () => {
  it('reads base-unit strings exactly, 30 digits included', () => {
    expect(parseBaseUnits('50000000')).toBe(50_000_000n);
    expect(parseBaseUnits('1')).toBe(1n);
    expect(parseBaseUnits('0')).toBe(0n);
    expect(parseBaseUnits('123456789012345678901234567890')).toBe(123_456_789_012_345_678_901_234_567_890n);
  });

  it.each(['-1', '+1', '1.0', '0.00000001', '1e8', '', ' 1', '1_000', '9'.repeat(79)])(
    'refuses %j',
    (text) => {
      expect(parseBaseUnits(text)).toBeNull();
    },
  );
});
