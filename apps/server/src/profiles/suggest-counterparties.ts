import { schema } from '@covenant/db';
import {
  type JurisdictionDenyList,
  type MatchCandidate,
  type MatchingProfile,
  rankCounterparties,
  tierLimitUsd,
} from '@covenant/domain';
import { and, count, desc, eq, inArray, ne } from 'drizzle-orm';
import type { CisDeps } from '../cis/cis-deps.js';
import { presentCisSheets } from '../cis/present-cis-sheets.js';
import type { PartnerView } from './list-partners.js';

export interface SuggestCounterpartiesDeps extends Pick<CisDeps, 'db' | 'fileStore'> {
  deniedJurisdictions: JurisdictionDenyList;
}

/**
 * Why a caller has no suggestions at all, or `ready` when they were ranked (the list may still be
 * empty). The matching needs the caller's own sheet, and a caller who may trade.
 */
export type MatchesStatus = 'ready' | 'kyc_required' | 'cis_required' | 'jurisdiction_denied';

export const matchesStatusMessages: Record<MatchesStatus, string | null> = {
  ready: null,
  kyc_required: 'Complete KYC verification to see suggested counterparties.',
  cis_required:
    'Store a Customer Information Sheet to see suggested counterparties: they are matched against it.',
  jurisdiction_denied:
    'Counterparty suggestions are not available for the jurisdiction of your Customer Information Sheet.',
};

/** A suggested counterparty: what `GET /partners` shows of them, the score and why. Nothing of their CIS. */
export interface CounterpartyMatchView extends PartnerView {
  score: number;
  reasons: string[];
}

export interface CounterpartyMatches {
  status: MatchesStatus;
  message: string | null;
  data: CounterpartyMatchView[];
}

type ProfileRow = typeof schema.profiles.$inferSelect;

/**
 * Counterparties for the caller, best first, matched on each side's newest Customer Information
 * Sheet: verified, KYC-complete traders with a sheet who have not opted out. Their sheets are
 * decrypted here only to be scored; the answer carries their public profile, a score and reasons
 * that state what both sides share (see rankCounterparties).
 */
export async function suggestCounterparties(
  deps: SuggestCounterpartiesDeps,
  query: { callerId: string; limit: number },
): Promise<CounterpartyMatches> {
  const { db } = deps;
  const [caller] = await db.select().from(schema.profiles).where(eq(schema.profiles.id, query.callerId));
  // Without a profile the caller has never been through KYC.
  const callerLimit = caller ? limitOf(caller) : null;
  if (caller?.verificationStatus !== 'verified' || callerLimit === null) return none('kyc_required');
  const [callerSheetRow] = await db
    .select()
    .from(schema.cisSheets)
    .where(eq(schema.cisSheets.ownerId, caller.id))
    .orderBy(desc(schema.cisSheets.createdAt), desc(schema.cisSheets.id))
    .limit(1);
  if (!callerSheetRow) return none('cis_required');
  const [callerSheet] = await presentCisSheets(deps, [callerSheetRow]);
  if (deps.deniedJurisdictions.countries.has(callerSheet!.jurisdiction)) return none('jurisdiction_denied');

  // Each candidate's newest sheet: one row per owner.
  const rows = await db
    .selectDistinctOn([schema.cisSheets.ownerId], { sheet: schema.cisSheets, profile: schema.profiles })
    .from(schema.cisSheets)
    .innerJoin(schema.profiles, eq(schema.profiles.id, schema.cisSheets.ownerId))
    .where(
      and(
        ne(schema.profiles.id, caller.id),
        eq(schema.profiles.verificationStatus, 'verified'),
        eq(schema.profiles.kycCompleted, true),
        eq(schema.profiles.matchingOptOut, false),
      ),
    )
    .orderBy(schema.cisSheets.ownerId, desc(schema.cisSheets.createdAt), desc(schema.cisSheets.id));
  if (rows.length === 0) return { status: 'ready', message: null, data: [] };
  const ids = rows.map(({ profile }) => profile.id);
  const [sheets, completed, disputes] = await Promise.all([
    presentCisSheets(
      deps,
      rows.map(({ sheet }) => sheet),
    ),
    countCompletedDeals(deps, ids),
    countDisputesAgainst(deps, ids),
  ]);
  const candidates: MatchCandidate[] = rows.map(({ profile }, index) => ({
    id: profile.id,
    username: profile.username,
    sheet: sheets[index]!,
    tierLimitUsd: limitOf(profile),
    completedDeals: completed.get(profile.id) ?? 0,
    disputesAgainst: disputes.get(profile.id) ?? 0,
  }));
  const callerProfile: MatchingProfile = {
    sheet: callerSheet!,
    tierLimitUsd: callerLimit,
    completedDeals: 0,
    disputesAgainst: 0,
  };
  const profiles = new Map(rows.map(({ profile }) => [profile.id, profile]));
  const ranked = rankCounterparties(callerProfile, candidates, deps.deniedJurisdictions);
  return {
    status: 'ready',
    message: null,
    data: ranked.slice(0, query.limit).map(({ id, score, reasons }) => {
      const profile = profiles.get(id)!;
      return {
        id,
        username: profile.username,
        verification_status: profile.verificationStatus,
        trading_tier: profile.tradingTier,
        kyc_completed: profile.kycCompleted,
        score,
        reasons,
      };
    }),
  };
}

function none(status: Exclude<MatchesStatus, 'ready'>): CounterpartyMatches {
  return { status, message: matchesStatusMessages[status], data: [] };
}

/** The tier's per-transaction limit, or null when the trader cannot trade (no KYC, no limit set). */
function limitOf(profile: ProfileRow): bigint | null {
  if (!profile.kycCompleted) return null;
  return tierLimitUsd(
    profile.tradingTier,
    profile.tierLimitUsd === null ? null : BigInt(profile.tierLimitUsd),
  );
}

/** Completed deals per trader, on either side. */
async function countCompletedDeals(deps: Pick<CisDeps, 'db'>, ids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const side of [schema.deals.buyerId, schema.deals.sellerId]) {
    const rows = await deps.db
      .select({ id: side, deals: count() })
      .from(schema.deals)
      .where(and(eq(schema.deals.status, 'completed'), inArray(side, ids)))
      .groupBy(side);
    for (const row of rows) counts.set(row.id, (counts.get(row.id) ?? 0) + row.deals);
  }
  return counts;
}

/** Disputes opened on a trader's deals by somebody else (their counterparty), per trader. */
async function countDisputesAgainst(deps: Pick<CisDeps, 'db'>, ids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const side of [schema.deals.buyerId, schema.deals.sellerId]) {
    const rows = await deps.db
      .select({ id: side, disputes: count() })
      .from(schema.dealDisputes)
      .innerJoin(schema.deals, eq(schema.deals.id, schema.dealDisputes.dealId))
      .where(and(inArray(side, ids), ne(schema.dealDisputes.openedBy, side)))
      .groupBy(side);
    for (const row of rows) counts.set(row.id, (counts.get(row.id) ?? 0) + row.disputes);
  }
  return counts;
}
