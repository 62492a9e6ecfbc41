/**
 * Base units → decimal text in whole tokens, exact and without trailing zeros (50000000n with 8
 * decimals is "0.5"). The inverse of `parseAmount`.
 */
export function formatAmount(baseUnits: bigint, decimals: number): string {
  const negative = baseUnits < 0n;
  const digits = (negative ? -baseUnits : baseUnits).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Whole US dollars with thousands separators, as limits are shown to people: 100000n → "100,000". */
export function formatUsd(dollars: bigint): string {
  return dollars.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
