import { tokenDecimals, validateNewTrade } from '@covenant/domain';
import type { CreateDealInput } from '../api/create-deal.js';
import type { Profile } from '../api/get-profile.js';
import { readFormAmount } from './form-amount.js';
import { checkMeetingDraft, type MeetingDraftField } from './meeting-draft.js';
import type { TradeDraft } from './trade-draft.js';

export type TradeDraftCheck =
  | {
      ok: false;
      title: string;
      message: string;
      /** Set when the meeting's details are what is missing or malformed: a message per field. */
      meetingErrors?: Partial<Record<MeetingDraftField, string>>;
    }
  | { ok: true; input: CreateDealInput };

// The spec's create-trade checks in their order, then the tier limit (the same rules the server
// applies), on the amounts parsed exactly into base units. An amount typed finer than the token's
// base unit fails where the spec's "positive number" check stands, saying what is wrong with it. A
// passing draft becomes the request body.
export function checkTradeDraft(draft: TradeDraft, profile: Profile | null | undefined): TradeDraftCheck {
  const asset = readFormAmount(draft.assetAmount, tokenDecimals[draft.assetSymbol]);
  const stable = readFormAmount(draft.stableAmount, tokenDecimals[draft.stableSymbol]);
  const assetAmount = asset.amount;
  const stableAmount = stable.amount;
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
  if (failure?.check === 'asset_amount' && asset.tooPrecise !== null) {
    return {
      ok: false,
      title: failure.title,
      message: `Asset amount can have at most ${asset.tooPrecise} decimals.`,
    };
  }
  if (failure?.check === 'stable_amount' && stable.tooPrecise !== null) {
    return {
      ok: false,
      title: failure.title,
      message: `Stable amount can have at most ${stable.tooPrecise} decimals.`,
    };
  }
  if (failure) return { ok: false, title: failure.title, message: failure.message };
  // A required meeting goes in whole: the terms cannot be accepted without its details.
  const meeting = draft.meetingRequired ? checkMeetingDraft(draft.meeting) : null;
  if (meeting && !meeting.ok) {
    const [first = 'Complete the meeting details.'] = Object.values(meeting.errors);
    return { ok: false, title: 'Meeting Details', message: first, meetingErrors: meeting.errors };
  }
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
      ...(meeting?.ok ? { travel_location: meeting.meeting.location, meeting: meeting.meeting } : {}),
    },
  };
}
