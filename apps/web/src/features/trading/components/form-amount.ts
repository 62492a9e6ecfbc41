import { parseAmount } from '@covenant/domain';

const exponentText = /^(\d*)(?:\.(\d*))?[eE]([+-]?\d{1,3})$/;

/**
 * A number input's value in plain decimal digits: the browser lets people type "1e7" or "2.5E-3",
 * which is turned into "10000000" or "0.0025" by moving the dot in the text, never through a float.
 * Anything else is answered unchanged (parseAmount decides whether it is a number).
 */
export function plainDecimal(text: string): string {
  const match = exponentText.exec(text);
  if (!match) return text;
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (whole === '' && fraction === '') return text;
  const digits = whole + fraction;
  const point = whole.length + Number(match[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

export type FormAmount = {
  /** Base units of the token; null when the text is not an amount the form takes. */
  amount: bigint | null;
  /** Set when the text is a positive amount finer than the token's base unit: its number of decimals. */
  tooPrecise: number | null;
};

/**
 * Typed text → base units of a token with `tokenDecimals`. Trailing zeros say nothing finer:
 * "0.500000000" BTC is half a bitcoin. The form takes every decimal the token has, as the API does.
 */
export function readFormAmount(text: string, tokenDecimals: number): FormAmount {
  const plain = plainDecimal(text.trim());
  if (!/^\d*(?:\.\d*)?$/.test(plain)) return { amount: null, tooPrecise: null };
  const [whole = '', fraction = ''] = plain.split('.');
  const significant = fraction.replace(/0+$/, '');
  const trimmed = plain.includes('.') ? `${whole}.${significant}` : plain;
  if (significant.length > tokenDecimals) {
    const exact = parseAmount(trimmed, significant.length);
    return { amount: null, tooPrecise: exact !== null && exact > 0n ? tokenDecimals : null };
  }
  return { amount: parseAmount(trimmed, tokenDecimals), tooPrecise: null };
}
