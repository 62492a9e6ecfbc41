import { type StableSymbol, tokenDecimals } from './assets.js';
import { formatAmount, formatUsd } from './format-amount.js';

/** KYC trading tiers (spec §6) and their per-transaction limits in whole US dollars. */
export const tradingTiers = ['basic', 'enhanced', 'institutional'] as const;
export type TradingTier = (typeof tradingTiers)[number];

export const tierLabels: Record<TradingTier, string> = {
  basic: 'Basic',
  enhanced: 'Enhanced',
  institutional: 'Institutional',
};

const fixedTierLimitsUsd = { basic: 10_000n, enhanced: 100_000n } as const;

/**
 * The per-transaction limit of a tier in whole dollars. Institutional limits are set per profile by
 * compliance; without one the limit is unknown and the answer is null, which callers treat as "no
 * trading allowed" rather than "no limit".
 */
export function tierLimitUsd(tier: TradingTier, institutionalLimitUsd: bigint | null): bigint | null {
  return tier === 'institutional' ? institutionalLimitUsd : fixedTierLimitsUsd[tier];
}

/**
 * A trade's USD value comes from its stable leg, where USDC and USDT count as $1 each; kept exact as
 * decimal text ("10000.000001").
 */
export function usdValueOf(stableAmount: bigint, stableSymbol: StableSymbol): string {
  return formatAmount(stableAmount, tokenDecimals[stableSymbol]);
}

/** Whether a stable-leg amount in base units is above a limit given in whole dollars. */
export function exceedsTierLimit(
  stableAmount: bigint,
  stableSymbol: StableSymbol,
  limitUsd: bigint,
): boolean {
  return stableAmount > limitUsd * 10n ** BigInt(tokenDecimals[stableSymbol]);
}

/** The toast text, e.g. "This trade exceeds your Basic tier limit of $10,000 per transaction." */
export function tierLimitMessage(tier: TradingTier, limitUsd: bigint): string {
  return `This trade exceeds your ${tierLabels[tier]} tier limit of $${formatUsd(limitUsd)} per transaction.`;
}
