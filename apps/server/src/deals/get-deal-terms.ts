import { type Db, schema } from '@covenant/db';
import {
  AppError,
  type BitcoinNetwork,
  type DealTermsHistory,
  dealTermsVersionTermsSchema,
} from '@covenant/domain';
import { and, asc, eq, or } from 'drizzle-orm';

/**
 * Every version of the caller's deal's terms, oldest first, the accepted one with its hash, and the
 * Bitcoin network addresses are checked against (so a client can check them before sending).
 */
export async function getDealTerms(
  deps: { db: Db; bitcoinNetwork: BitcoinNetwork },
  userId: string,
  dealId: string,
): Promise<DealTermsHistory> {
  const { db } = deps;
  const [deal] = await db
    .select({ accepted: schema.deals.acceptedTermsVersion, termsHash: schema.deals.termsHash })
    .from(schema.deals)
    .where(
      and(
        eq(schema.deals.id, dealId),
        or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId)),
      ),
    );
  if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
  const versions = await db
    .select()
    .from(schema.dealTermsVersions)
    .where(eq(schema.dealTermsVersions.dealId, dealId))
    .orderBy(asc(schema.dealTermsVersions.version));
  return {
    versions: versions.map((row) => ({
      version: row.version,
      proposed_by: row.proposedBy,
      terms: dealTermsVersionTermsSchema.parse(row.terms),
      created_at: row.createdAt.toISOString(),
    })),
    accepted_version: deal.accepted,
    terms_hash: deal.termsHash,
    bitcoin_network: deps.bitcoinNetwork,
  };
}
