import { type StableSymbol, type TokenSymbol, tokenDecimals } from './assets.js';
import type { ErrorCode } from './errors.js';
import { formatAmount } from './format-amount.js';
import { exceedsTierLimit, type TradingTier, tierLimitMessage, usdValueOf } from './tier-limits.js';
import { maxBaseUnitsFor, minBaseUnitsFor } from './trade-limits.js';

export interface NewTradeInput {
  /** The caller's profile; null when nobody is signed in or the profile is missing. */
  profile: {
    kycCompleted: boolean;
    tradingTier: TradingTier;
    /** Whole dollars; null when no limit is known, which blocks trading like missing KYC does. */
    tierLimitUsd: bigint | null;
  } | null;
  counterpartyId: string | null;
  assetSymbol: TokenSymbol;
  /** Base units; null when the typed text is not an exact amount for the token. */
  assetAmount: bigint | null;
  stableSymbol: StableSymbol;
  stableAmount: bigint | null;
}

export interface NewTradeFailure {
  check:
    | 'authentication'
    | 'kyc'
    | 'partner'
    | 'asset_amount'
    | 'stable_amount'
    | 'amount_too_large'
    | 'amount_too_small'
    | 'tier_limit'
    | 'counterparty_kyc'
    | 'counterparty_tier_limit';
  /** The toast the web app shows, word for word from the spec. */
  title: string;
  message: string;
  /** The API error the server answers with. */
  code: ErrorCode;
  details: Record<string, unknown>;
}

/**
 * The create-trade checks of spec §5 in the spec's order, then each leg's minimum and the tier limit
 * (which the spec leaves open and we enforce). Answers the first failing check, or null when the trade may be created.
 */
export function validateNewTrade(input: NewTradeInput): NewTradeFailure | null {
  const { profile } = input;
  if (!profile) {
    return fail(
      'authentication',
      'Authentication Required',
      'Please sign in to create trades.',
      'UNAUTHORIZED',
    );
  }
  if (!profile.kycCompleted || profile.tierLimitUsd === null) {
    return fail('kyc', 'KYC Required', 'Please complete KYC verification before trading.', 'KYC_REQUIRED');
  }
  if (!input.counterpartyId) {
    return fail('partner', 'Select Partner', 'Please select a trading partner.', 'VALIDATION_FAILED', {
      fields: { counterparty_id: 'required' },
    });
  }
  if (input.assetAmount === null || input.assetAmount <= 0n) {
    return fail(
      'asset_amount',
      'Invalid Amount',
      'Asset amount must be a positive number.',
      'VALIDATION_FAILED',
      {
        fields: { asset_amount: 'must be a positive number' },
      },
    );
  }
  if (input.stableAmount === null || input.stableAmount <= 0n) {
    return fail(
      'stable_amount',
      'Invalid Amount',
      'Stable amount must be a positive number.',
      'VALIDATION_FAILED',
      {
        fields: { stable_amount: 'must be a positive number' },
      },
    );
  }
  const assetTooLarge = input.assetAmount > maxBaseUnitsFor(input.assetSymbol);
  const stableTooLarge = input.stableAmount > maxBaseUnitsFor(input.stableSymbol);
  if (assetTooLarge || stableTooLarge) {
    const fields: Record<string, string> = {};
    if (assetTooLarge) fields.asset_amount = 'exceeds 1000000';
    if (stableTooLarge) fields.stable_amount = 'exceeds 1000000';
    return fail(
      'amount_too_large',
      'Amount Too Large',
      'Trade amounts exceed maximum limits.',
      'VALIDATION_FAILED',
      {
        fields,
      },
    );
  }
  const legs = [
    ['asset_amount', 'Asset', input.assetSymbol, input.assetAmount],
    ['stable_amount', 'Stable', input.stableSymbol, input.stableAmount],
  ] as const;
  for (const [field, side, symbol, amount] of legs) {
    const minimum = minBaseUnitsFor(symbol);
    if (amount < minimum) {
      const named = `${formatAmount(minimum, tokenDecimals[symbol])} ${symbol}`;
      return fail(
        'amount_too_small',
        'Amount Too Small',
        `${side} amount must be at least ${named}.`,
        'AMOUNT_BELOW_MINIMUM',
        { fields: { [field]: `must be at least ${named}` }, symbol, minimum: minimum.toString() },
      );
    }
  }
  if (exceedsTierLimit(input.stableAmount, input.stableSymbol, profile.tierLimitUsd)) {
    return fail(
      'tier_limit',
      'Tier Limit Exceeded',
      tierLimitMessage(profile.tradingTier, profile.tierLimitUsd),
      'TIER_LIMIT_EXCEEDED',
      {
        tier: profile.tradingTier,
        limit_usd: profile.tierLimitUsd.toString(),
        value_usd: usdValueOf(input.stableAmount, input.stableSymbol),
      },
    );
  }
  return null;
}

/** What the rules read of the other party to a trade. */
export interface CounterpartyStanding {
  kycCompleted: boolean;
  /** Whole dollars; null when no limit is known, which blocks trading like missing KYC does. */
  tierLimitUsd: bigint | null;
}

/**
 * The counterparty's side of a trade the caller proposes or accepts: it must have completed KYC and
 * the stable leg must fit its tier limit too, or a Basic trader could be drawn into a deal its own
 * KYC does not cover. The answers name neither the counterparty's tier nor its limit (an
 * Institutional limit is set for that trader alone by compliance); the caller learns only which
 * party's limit the trade exceeds, and its value.
 */
export function validateCounterparty(
  counterparty: CounterpartyStanding | null,
  stableSymbol: StableSymbol,
  stableAmount: bigint,
): NewTradeFailure | null {
  if (!counterparty?.kycCompleted || counterparty.tierLimitUsd === null) {
    return fail(
      'counterparty_kyc',
      'KYC Required',
      'Your counterparty has not completed KYC verification.',
      'KYC_REQUIRED',
      { party: 'counterparty' },
    );
  }
  if (exceedsTierLimit(stableAmount, stableSymbol, counterparty.tierLimitUsd)) {
    return fail(
      'counterparty_tier_limit',
      'Tier Limit Exceeded',
      'This trade exceeds your counterparty’s tier limit per transaction.',
      'TIER_LIMIT_EXCEEDED',
      { party: 'counterparty', value_usd: usdValueOf(stableAmount, stableSymbol) },
    );
  }
  return null;
}

function fail(
  check: NewTradeFailure['check'],
  title: string,
  message: string,
  code: ErrorCode,
  details: Record<string, unknown> = {},
): NewTradeFailure {
  return { check, title, message, code, details };
}
