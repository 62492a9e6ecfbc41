import {
  assetChains,
  type Chain,
  type DealTermsVersionTerms,
  formatAmount,
  isChain,
  isStableChain,
  isStableSymbol,
  isTokenSymbol,
  parseAmount,
  parseBaseUnits,
  type StableChain,
  type StableSymbol,
  type TokenSymbol,
  tokenDecimals,
} from '@covenant/domain';
import {
  checkMeetingDraft,
  type MeetingDraft,
  type MeetingDraftField,
  meetingDraftOf,
} from '@/features/trading/components/meeting-draft.js';
import type { TermsProposal } from '../api/terms-propose.js';

/** The counter-proposal form as typed: amounts and hours stay text until they are parsed on submit. */
export type TermsDraft = {
  assetChain: Chain;
  assetSymbol: TokenSymbol;
  assetAmount: string;
  stableChain: StableChain;
  stableSymbol: StableSymbol;
  stableAmount: string;
  fundingDeadlineHours: string;
  meetingRequired: boolean;
  meeting: MeetingDraft;
};

const wholeTokens = (baseUnits: string, symbol: TokenSymbol) => {
  const amount = parseBaseUnits(baseUnits);
  return amount === null ? '' : formatAmount(amount, tokenDecimals[symbol]);
};

/** A draft that starts from a version's terms, amounts shown in whole tokens. */
export function draftFromTerms(terms: DealTermsVersionTerms): TermsDraft {
  const assetSymbol = isTokenSymbol(terms.asset_symbol) ? terms.asset_symbol : 'BTC';
  const stableSymbol = isStableSymbol(terms.stable_symbol) ? terms.stable_symbol : 'USDC';
  return {
    assetChain: isChain(terms.asset_chain) ? terms.asset_chain : assetChains[0],
    assetSymbol,
    assetAmount: wholeTokens(terms.asset_amount, assetSymbol),
    stableChain: isStableChain(terms.stable_chain) ? terms.stable_chain : 'ETH',
    stableSymbol,
    stableAmount: wholeTokens(terms.stable_amount, stableSymbol),
    fundingDeadlineHours: String(terms.funding_deadline_hours),
    meetingRequired: terms.meeting_required,
    meeting: meetingDraftOf(terms.meeting, terms.travel_location),
  };
}

export type TermsDraftErrors = Partial<
  Record<'assetAmount' | 'stableAmount' | 'fundingDeadlineHours', string> & {
    meeting: Partial<Record<MeetingDraftField, string>>;
  }
>;

export type TermsDraftCheck = { ok: false; errors: TermsDraftErrors } | { ok: true; proposal: TermsProposal };

/**
 * The draft as a request body: amounts parsed exactly into base units with the token's decimals (the
 * spec's messages when they are not positive numbers), the funding deadline a whole number of hours
 * from 1 to 168, and a required meeting complete (place, coordinates, first day). The server checks
 * the rest (symbols on chains, maximum, tier limit).
 */
export function checkTermsDraft(draft: TermsDraft): TermsDraftCheck {
  const assetAmount = parseAmount(draft.assetAmount.trim(), tokenDecimals[draft.assetSymbol]);
  const stableAmount = parseAmount(draft.stableAmount.trim(), tokenDecimals[draft.stableSymbol]);
  const hoursText = draft.fundingDeadlineHours.trim();
  const hours = /^\d{1,3}$/.test(hoursText) ? Number(hoursText) : Number.NaN;
  const errors: TermsDraftErrors = {};
  if (assetAmount === null || assetAmount <= 0n)
    errors.assetAmount = 'Asset amount must be a positive number.';
  if (stableAmount === null || stableAmount <= 0n) {
    errors.stableAmount = 'Stable amount must be a positive number.';
  }
  if (!(hours >= 1 && hours <= 168)) {
    errors.fundingDeadlineHours = 'The funding deadline is a whole number of hours from 1 to 168 (7 days).';
  }
  const meeting = draft.meetingRequired ? checkMeetingDraft(draft.meeting) : null;
  if (meeting && !meeting.ok) errors.meeting = meeting.errors;
  if (
    Object.keys(errors).length > 0 ||
    assetAmount === null ||
    stableAmount === null ||
    meeting?.ok === false
  )
    return { ok: false, errors };
  return {
    ok: true,
    proposal: {
      asset_chain: draft.assetChain,
      asset_symbol: draft.assetSymbol,
      asset_amount: String(assetAmount),
      stable_chain: draft.stableChain,
      stable_symbol: draft.stableSymbol,
      stable_amount: String(stableAmount),
      funding_deadline_hours: hours,
      meeting_required: draft.meetingRequired,
      travel_location: meeting?.ok ? meeting.meeting.location : null,
      ...(meeting?.ok ? { meeting: meeting.meeting } : {}),
    },
  };
}
