import { type Db, schema } from '@covenant/db';
import { and, asc, eq, ilike, ne, sql } from 'drizzle-orm';

export interface PartnerView {
  id: string;
  username: string | null;
  verification_status: schema.VerificationStatus;
  trading_tier: schema.TradingTier;
  kyc_completed: boolean;
}

/**
 * Profiles a trader may choose as counterparty (spec §6): verified and KYC-complete, never the
 * caller; `search` matches any part of the username regardless of case.
 */
export async function listPartners(
  db: Db,
  query: { callerId: string; search: string | undefined; limit: number },
): Promise<PartnerView[]> {
  const conditions = [
    ne(schema.profiles.id, query.callerId),
    eq(schema.profiles.verificationStatus, 'verified'),
    eq(schema.profiles.kycCompleted, true),
  ];
  if (query.search) conditions.push(ilike(schema.profiles.username, `%${escapeLikePattern(query.search)}%`));
  const rows = await db
    .select({
      id: schema.profiles.id,
      username: schema.profiles.username,
      verificationStatus: schema.profiles.verificationStatus,
      tradingTier: schema.profiles.tradingTier,
      kycCompleted: schema.profiles.kycCompleted,
    })
    .from(schema.profiles)
    .where(and(...conditions))
    .orderBy(asc(sql`lower(${schema.profiles.username})`), asc(schema.profiles.id))
    .limit(query.limit);
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    verification_status: row.verificationStatus,
    trading_tier: row.tradingTier,
    kyc_completed: row.kycCompleted,
  }));
}

/** A typed `%` or `_` is a character to find, not a wildcard. */
function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
