import { type TokenSymbol, tokenDecimals } from './assets.js';

/** Spec §9: at most 1,000,000 whole tokens on either side of a trade. */
export const maxTokensPerSide = 1_000_000n;

export function maxBaseUnitsFor(symbol: TokenSymbol): bigint {
  return maxTokensPerSide * 10n ** BigInt(tokenDecimals[symbol]);
}
