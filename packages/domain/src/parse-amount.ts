/**
 * Exact conversions between the decimal text people type ("0.5") and integer base units (50000000n
 * for BTC). Only digits and one dot are accepted: no signs, no exponent notation, no grouping, and no
 * more fraction digits than the token has, so a value never passes through a float.
 */
const decimalText = /^(\d*)(?:\.(\d*))?$/;
const baseUnitText = /^\d+$/;

/** The longest integer `numeric(78,0)` holds; anything longer is refused before it reaches SQL. */
export const maxBaseUnitDigits = 78;

/** Decimal text in whole tokens → base units, or null when the text is not an exact amount. */
export function parseAmount(text: string, decimals: number): bigint | null {
  const match = decimalText.exec(text);
  if (!match) return null;
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (whole === '' && fraction === '') return null;
  if (fraction.length > decimals) return null;
  if (whole.length + decimals > maxBaseUnitDigits) return null;
  return BigInt((whole || '0') + fraction.padEnd(decimals, '0'));
}

/** A base-unit decimal string from the API ("50000000") → bigint, or null when it is not one. */
export function parseBaseUnits(text: string): bigint | null {
  if (!baseUnitText.test(text) || text.length > maxBaseUnitDigits) return null;
  return BigInt(text);
}
