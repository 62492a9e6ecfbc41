import type { CisSheet } from '../cis/cis.js';
import { type JurisdictionDenyList, jurisdictionsMayMatch } from './jurisdiction-deny-list.js';
import { describeTradePair, type TradePair, tradePairKey, tradePairsOf } from './trade-pairs.js';

/** What the matching reads of a trader: the structured part of their newest CIS and their record here. */
export interface MatchingProfile {
  sheet: Pick<
    CisSheet,
    | 'jurisdiction'
    | 'assets'
    | 'preferred_chains'
    | 'size_min_usd'
    | 'size_max_usd'
    | 'settlement_window_hours'
  >;
  /** The per-transaction limit of their KYC tier in whole US dollars; null when they cannot trade. */
  tierLimitUsd: bigint | null;
  /** Deals of theirs that completed on the platform. */
  completedDeals: number;
  /** Disputes their counterparties opened on their deals. */
  disputesAgainst: number;
}

export interface MatchCandidate extends MatchingProfile {
  id: string;
  username: string | null;
}

/**
 * The most points each soft factor gives; a candidate's score (0–100) is their sum. What the two
 * traders can deal in together weighs most, then whether the sizes meet, then how fast both settle,
 * then the candidate's record here.
 */
export const matchWeights = { pairs: 35, sizes: 30, settlement: 15, experience: 10, disputes: 10 } as const;

export type MatchFactor = keyof typeof matchWeights;

/** Completed deals at which the experience factor is full: one point per deal up to it. */
export const experiencedDealCount = 10;

export interface CounterpartySuggestion {
  id: string;
  score: number;
  points: Record<MatchFactor, number>;
  /** Why, one phrase per factor, e.g. "both trade BTC against USDC on Ethereum", "settles within 24 h". */
  reasons: string[];
}

interface Scored extends CounterpartySuggestion {
  commonPairs: number;
  candidate: MatchCandidate;
}

/**
 * Counterparties for `caller`, best first. Hard filters drop a candidate: a jurisdiction the deny
 * list keeps apart from the caller's, no asset/chain pair both trade, or tier limits unable to carry
 * the smallest size both would trade. The rest are ordered by score, then by more pairs in common,
 * more completed deals, fewer disputes against them, username (any case) and id, so equal input
 * always gives the same order.
 *
 * Reasons state only what both sides have in common (the pairs, the overlap of sizes, the window
 * both can meet) and the candidate's record here: never what only the candidate's sheet says.
 */
export function rankCounterparties(
  caller: MatchingProfile,
  candidates: readonly MatchCandidate[],
  denyList: JurisdictionDenyList,
): CounterpartySuggestion[] {
  const callerPairs = tradePairsOf(caller.sheet);
  if (callerPairs.length === 0 || caller.tierLimitUsd === null) return [];
  const scored: Scored[] = [];
  for (const candidate of candidates) {
    const suggestion = scoreCandidate(caller, callerPairs, caller.tierLimitUsd, candidate, denyList);
    if (suggestion) scored.push(suggestion);
  }
  scored.sort(compareSuggestions);
  return scored.map(({ id, score, points, reasons }) => ({ id, score, points, reasons }));
}

function scoreCandidate(
  caller: MatchingProfile,
  callerPairs: TradePair[],
  callerLimit: bigint,
  candidate: MatchCandidate,
  denyList: JurisdictionDenyList,
): Scored | null {
  const ours = caller.sheet;
  const theirs = candidate.sheet;
  if (!jurisdictionsMayMatch(denyList, ours.jurisdiction, theirs.jurisdiction)) return null;
  if (candidate.tierLimitUsd === null) return null;
  const theirPairs = new Set(tradePairsOf(theirs).map(tradePairKey));
  const common = callerPairs.filter((pair) => theirPairs.has(tradePairKey(pair)));
  if (common.length === 0) return null;

  // Sizes in whole dollars, as bigints like every limit. The smallest trade both would do must fit
  // both tier limits (each party's limit is checked when they propose terms).
  const smallest = max(BigInt(ours.size_min_usd), BigInt(theirs.size_min_usd));
  const carried = min(callerLimit, candidate.tierLimitUsd);
  if (carried < smallest) return null;
  const bothMax = min(BigInt(ours.size_max_usd), BigInt(theirs.size_max_usd));
  const largest = min(bothMax, carried);
  // The share of the caller's own tradable range (within their limit) the overlap covers, counted
  // in whole dollars with both ends included, so a one-amount range that is met counts in full.
  const ownRange = min(BigInt(ours.size_max_usd), callerLimit) - BigInt(ours.size_min_usd) + 1n;
  const overlap = largest - smallest + 1n;
  const sizes = overlap > 0n ? Number((BigInt(matchWeights.sizes) * overlap) / ownRange) : 0;

  const fast = Math.min(ours.settlement_window_hours, theirs.settlement_window_hours);
  const slow = Math.max(ours.settlement_window_hours, theirs.settlement_window_hours);
  const record = candidate.completedDeals + candidate.disputesAgainst;
  const points: Record<MatchFactor, number> = {
    pairs: Math.floor((matchWeights.pairs * common.length) / callerPairs.length),
    sizes,
    settlement: Math.floor((matchWeights.settlement * fast) / slow),
    experience: Math.floor(
      (matchWeights.experience * Math.min(candidate.completedDeals, experiencedDealCount)) /
        experiencedDealCount,
    ),
    // A clean record (no disputes, or no deals yet) counts in full.
    disputes:
      record === 0
        ? matchWeights.disputes
        : Math.floor((matchWeights.disputes * candidate.completedDeals) / record),
  };
  const reasons = [
    `both trade ${describePairs(common)}`,
    describeSizes(smallest, largest, bothMax),
    `settles within ${slow} h`,
    describeExperience(candidate.completedDeals),
    describeDisputes(candidate.disputesAgainst),
  ];
  const score = Object.values(points).reduce((sum, value) => sum + value, 0);
  return { id: candidate.id, score, points, reasons, commonPairs: common.length, candidate };
}

function compareSuggestions(a: Scored, b: Scored): number {
  return (
    b.score - a.score ||
    b.commonPairs - a.commonPairs ||
    b.candidate.completedDeals - a.candidate.completedDeals ||
    a.candidate.disputesAgainst - b.candidate.disputesAgainst ||
    compareUsernames(a.candidate.username, b.candidate.username) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** Any case, and a trader without a username after those with one. */
function compareUsernames(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** "BTC against USDC on Ethereum", "… and ETH against USDT on Ethereum", "…, … and 2 more pairs". */
function describePairs(pairs: TradePair[]): string {
  const [first, second] = pairs.map(describeTradePair);
  if (pairs.length === 1) return first!;
  if (pairs.length === 2) return `${first} and ${second}`;
  const more = pairs.length - 2;
  return `${first}, ${second} and ${more} more ${more === 1 ? 'pair' : 'pairs'}`;
}

function describeSizes(smallest: bigint, largest: bigint, bothMax: bigint): string {
  if (largest < smallest) return 'sizes do not overlap';
  const limited = largest < bothMax ? ' within the tier limits' : '';
  if (largest === smallest) return `sizes meet at ${compactUsd(smallest)}${limited}`;
  return `sizes overlap ${compactUsd(smallest)}–${compactUsd(largest)}${limited}`;
}

function describeExperience(completed: number): string {
  if (completed === 0) return 'no completed deals on Covenant yet';
  return `${completed} completed ${completed === 1 ? 'deal' : 'deals'} on Covenant`;
}

function describeDisputes(against: number): string {
  if (against === 0) return 'no disputes raised against them';
  return `${against} ${against === 1 ? 'dispute' : 'disputes'} raised against them`;
}

const compact = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});

/** "$50k", "$1.5M", "$999": short enough for a sentence, exact enough to compare ranges. */
export function compactUsd(dollars: bigint): string {
  return compact.format(dollars).replace('K', 'k');
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);
