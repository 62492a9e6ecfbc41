import { type TokenSymbol, tokenDecimals } from './assets.js';
import { minimumBitcoinDepositSats } from './escrow/minimum-bitcoin-deposit.js';

/** Spec §9: at most 1,000,000 whole tokens on either side of a trade. */
export const maxTokensPerSide = 1_000_000n;

export function maxBaseUnitsFor(symbol: TokenSymbol): bigint {
  return maxTokensPerSide * 10n ** BigInt(tokenDecimals[symbol]);
}

/**
 * The smallest amount a leg may carry, in base units, where its chain sets one. A Bitcoin leg below
 * the smallest output counted as a deposit (`minimumBitcoinDepositSats`: below it a payout costs more
 * in fees than the output holds) could never be funded as agreed nor paid out, and would stall the
 * deal at settlement. Tokens on Ethereum and Solana have no such floor here: any positive amount.
 */
const minimumBaseUnits: Partial<Record<TokenSymbol, bigint>> = { BTC: minimumBitcoinDepositSats };

export function minBaseUnitsFor(symbol: TokenSymbol): bigint {
  return minimumBaseUnits[symbol] ?? 1n;
}
