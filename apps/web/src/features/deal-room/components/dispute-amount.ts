import { formatAmount, isTokenSymbol, parseBaseUnits, tokenDecimals } from '@covenant/domain';

// "50000000" BTC → "0.5 BTC", exactly; a symbol this app does not know stays in base units.
export function formatDisputeAmount(baseUnits: string, symbol: string): string {
  const amount = parseBaseUnits(baseUnits);
  if (amount === null || !isTokenSymbol(symbol)) return `${baseUnits} ${symbol}`;
  return `${formatAmount(amount, tokenDecimals[symbol])} ${symbol}`;
}
