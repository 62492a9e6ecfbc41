import { formatAmount, isTokenSymbol, parseBaseUnits, tokenDecimals } from '@covenant/domain';

/**
 * Base units in whole tokens without the symbol ("50000000" BTC → "0.5"): what a wallet's amount
 * field takes, so it is what "Copy amount" copies. A symbol this app does not know stays in base units,
 * exactly as `formatDealAmount` shows it.
 */
export function tokenAmount(baseUnits: string, symbol: string): string {
  const amount = parseBaseUnits(baseUnits);
  if (amount === null || !isTokenSymbol(symbol)) return baseUnits;
  return formatAmount(amount, tokenDecimals[symbol]);
}
