import { parseAmount, tokenDecimals, validateNewTrade } from '@covenant/domain';
import type { CreateDealInput } from '../api/create-deal.js';
import type { Profile } from '../api/get-profile.js';
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
