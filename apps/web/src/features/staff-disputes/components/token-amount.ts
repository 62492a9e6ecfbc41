import { formatAmount, isTokenSymbol, parseAmount, parseBaseUnits, tokenDecimals } from '@covenant/domain';

/** Decimals of a token's base unit; a symbol this app does not know is handled in base units. */
export function decimalsOf(symbol: string): number {
  return isTokenSymbol(symbol) ? tokenDecimals[symbol] : 0;
}

/** Base units → "0.5 BTC", exactly. */
export function formatTokenAmount(baseUnits: bigint | string, symbol: string): string {
  const amount = typeof baseUnits === 'bigint' ? baseUnits : parseBaseUnits(baseUnits);
  if (amount === null) return `${baseUnits} ${symbol}`;
  return `${formatAmount(amount, decimalsOf(symbol))} ${symbol}`;
}

/** "0.25" BTC → 25000000n, or null when the text is not an exact amount of the token. */
export function toBaseUnits(text: string, symbol: string): bigint | null {
  return parseAmount(text.trim(), decimalsOf(symbol));
}
