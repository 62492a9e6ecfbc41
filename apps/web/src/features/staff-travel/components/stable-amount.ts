import { formatAmount, isTokenSymbol, parseAmount, parseBaseUnits, tokenDecimals } from '@covenant/domain';

/** Decimals of a token's base unit; a symbol this app does not know is handled in base units. */
function decimalsOf(symbol: string): number {
  return isTokenSymbol(symbol) ? tokenDecimals[symbol] : 0;
}

/** Base units → "980.5" whole tokens, exactly. */
export function stableValue(baseUnits: string, symbol: string): string {
  const amount = parseBaseUnits(baseUnits);
  return amount === null ? baseUnits : formatAmount(amount, decimalsOf(symbol));
}

/** Base units → "980.5 USDC", exactly. */
export function formatStableAmount(baseUnits: string, symbol: string): string {
  return `${stableValue(baseUnits, symbol)} ${symbol}`;
}

/** "980.5" USDC → "980500000", or null when the text is not an exact amount of the token above zero. */
export function toStableBaseUnits(text: string, symbol: string): string | null {
  const amount = parseAmount(text.trim(), decimalsOf(symbol));
  return amount !== null && amount > 0n ? amount.toString() : null;
}
