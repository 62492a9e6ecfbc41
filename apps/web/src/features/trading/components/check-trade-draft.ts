import { parseAmount, tokenDecimals, validateNewTrade } from '@covenant/domain';
import type { CreateDealInput } from '../api/create-deal.js';
import type { Profile } from '../api/get-profile.js';
import type { TradeDraft } from './trade-draft.js';

export type TradeDraftCheck =
  | { ok: false; title: string; message: string }
  | { ok: true; input: CreateDealInput };

// The spec's create-trade checks in their order, then the tier limit (the same rules the server
// applies), on the amounts parsed exactly into base units. A passing draft becomes the request body.
export function checkTradeDraft(draft: TradeDraft, profile: Profile | null | undefined): TradeDraftCheck {
  const assetAmount = parseAmount(draft.assetAmount.trim(), tokenDecimals[draft.assetSymbol]);
  const stableAmount = parseAmount(draft.stableAmount.trim(), tokenDecimals[draft.stableSymbol]);
  const failure = validateNewTrade({
    profile: profile
      ? {
          kycCompleted: profile.kyc_completed,
          tradingTier: profile.trading_tier,
          tierLimitUsd: profile.tier_limit_usd === null ? null : BigInt(profile.tier_limit_usd),
        }
      : null,
    counterpartyId: draft.partnerId || null,
    assetSymbol: draft.assetSymbol,
    assetAmount,
    stableSymbol: draft.stableSymbol,
    stableAmount,
  });
  if (failure) return { ok: false, title: failure.title, message: failure.message };
  const location = draft.meetingLocation.trim();
  return {
    ok: true,
    input: {
      asset_chain: draft.assetChain,
      asset_symbol: draft.assetSymbol,
      asset_amount: String(assetAmount),
      stable_chain: draft.stableChain,
      stable_symbol: draft.stableSymbol,
      stable_amount: String(stableAmount),
      counterparty_id: draft.partnerId,
      meeting_required: draft.meetingRequired,
      ...(draft.meetingRequired && location ? { travel_location: location } : {}),
    },
  };
}
