import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainDecimal, readFormAmount } from './form-amount.js';

describe('plainDecimal', () => {
  it.each([
    ['1e7', '10000000'],
    ['1.5e2', '150'],
    ['1.5E+1', '15'],
    ['2.5e-3', '0.0025'],
    ['.5e1', '5'],
    ['12.34e1', '123.4'],
    ['1e0', '1'],
    ['0.5', '0.5'],
    ['abc', 'abc'],
    ['e5', 'e5'],
    ['1e', '1e'],
  ])('writes %j as %j', (text, plain) => {
    expect(plainDecimal(text)).toBe(plain);
  });

  it('moves the point as a float would, for every mantissa and exponent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999_999 }),
        fc.integer({ min: -8, max: 8 }),
        (mantissa, exponent) => {
          const plain = plainDecimal(`${mantissa}e${exponent}`);
          expect(Number(plain)).toBeCloseTo(mantissa * 10 ** exponent, 8);
        },
      ),
    );
  });
});

describe('readFormAmount', () => {
  it('reads base units, refusing what is not an amount', () => {
    expect(readFormAmount(' 0.5 ', 8)).toEqual({ amount: 50_000_000n, tooPrecise: null });
    expect(readFormAmount('1.2.3', 8)).toEqual({ amount: null, tooPrecise: null });
    expect(readFormAmount('-1', 8)).toEqual({ amount: null, tooPrecise: null });
    expect(readFormAmount('', 8)).toEqual({ amount: null, tooPrecise: null });
  });

  it('says how many decimals the token has when a positive amount is typed finer', () => {
    expect(readFormAmount('0.0000001', 6)).toEqual({ amount: null, tooPrecise: 6 });
    expect(readFormAmount('1e-19', 18)).toEqual({ amount: null, tooPrecise: 18 });
    // Zero typed finely is not a precision problem: it is not a positive amount.
    expect(readFormAmount('0.0000000', 6)).toEqual({ amount: 0n, tooPrecise: null });
    expect(readFormAmount('1.10000000', 6)).toEqual({ amount: 1_100_000n, tooPrecise: null });
  });
});
