import { formatAmount, isTokenSymbol, parseBaseUnits, tokenDecimals } from '@covenant/domain';

// "50000000" BTC → "0.5 BTC": base units shown in whole tokens, exactly. A symbol this app does not
// know is shown in base units rather than guessed.
export function formatDealAmount(baseUnits: string, symbol: string): string {
  const amount = parseBaseUnits(baseUnits);
  if (amount === null || !isTokenSymbol(symbol)) return `${baseUnits} ${symbol}`;
  return `${formatAmount(amount, tokenDecimals[symbol])} ${symbol}`;
}
