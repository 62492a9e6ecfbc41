import { type Db, schema } from '@covenant/db';
import type { StaffDealSearchResult, StaffDealSummary } from '@covenant/domain';
import { desc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { recordStaffRead } from './record-staff-read.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const buyerUser = alias(schema.users, 'buyer_user');
const sellerUser = alias(schema.users, 'seller_user');
const buyerProfile = alias(schema.profiles, 'buyer_profile');
const sellerProfile = alias(schema.profiles, 'seller_profile');

/** Case-insensitive equality: e-mail addresses, usernames and hex addresses may be typed in any case. */
const same = (column: Parameters<typeof sql>[1], text: string) => sql`lower(${column}) = lower(${text})`;

/**
 * Deal ids for `q`, each with what matched, first match kind wins: the deal's id, its escrow's id, a
 * party's user id, e-mail address or username, or an address (an escrow leg's deposit, payout or
 * refund address, a party's payout or refund address, or where a deposit came from). Exact matches
 * only, so a search names what it finds and never lists deals by a fragment.
 */
async function matchingDeals(db: Db, q: string): Promise<Map<string, StaffDealSummary['matched']>> {
  const found = new Map<string, StaffDealSummary['matched']>();
  const add = (ids: { id: string }[], matched: StaffDealSummary['matched']) => {
    for (const { id } of ids) if (!found.has(id)) found.set(id, matched);
  };
  if (uuidPattern.test(q)) {
    add(await db.select({ id: schema.deals.id }).from(schema.deals).where(eq(schema.deals.id, q)), 'deal');
    add(
      await db.select({ id: schema.escrows.dealId }).from(schema.escrows).where(eq(schema.escrows.id, q)),
      'escrow',
    );
  }
  const users = db
    .select({ id: schema.users.id })
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.id, schema.users.id))
    .where(
      or(
        ...(uuidPattern.test(q) ? [eq(schema.users.id, q)] : []),
        same(schema.users.email, q),
        same(schema.profiles.username, q),
      ),
    );
  add(
    await db
      .select({ id: schema.deals.id })
      .from(schema.deals)
      .where(or(inArray(schema.deals.buyerId, users), inArray(schema.deals.sellerId, users))),
    'user',
  );
  const legs = schema.escrowLegs;
  add(
    await db
      .select({ id: schema.escrows.dealId })
      .from(legs)
      .innerJoin(schema.escrows, eq(schema.escrows.id, legs.escrowId))
      .where(
        or(
          same(legs.depositAddress, q),
          same(legs.receiverPayoutAddress, q),
          same(legs.depositorRefundAddress, q),
          inArray(
            legs.escrowId,
            db
              .select({ id: schema.escrowLedgerEntries.escrowId })
              .from(schema.escrowLedgerEntries)
              .where(same(schema.escrowLedgerEntries.counterpartyAddress, q)),
          ),
        ),
      ),
    'address',
  );
  add(
    await db
      .select({ id: schema.dealAddresses.dealId })
      .from(schema.dealAddresses)
      .where(or(same(schema.dealAddresses.payoutAddress, q), same(schema.dealAddresses.refundAddress, q))),
    'address',
  );
  return found;
}

/**
 * `GET /staff/deals?q=`: the deals matching the search, newest first, at most `limit`. Each deal
 * listed is a staff read and is recorded in its audit trail (with what matched, not the text).
 */
export async function searchStaffDeals(
  deps: { db: Db; now: () => Date },
  staffId: string,
  query: { q: string; limit: number },
): Promise<StaffDealSearchResult> {
  const { db } = deps;
  const matches = await matchingDeals(db, query.q);
  if (matches.size === 0) return { data: [] };
  const rows = await db
    .select({
      deal: schema.deals,
      buyerEmail: buyerUser.email,
      sellerEmail: sellerUser.email,
      buyerUsername: buyerProfile.username,
      sellerUsername: sellerProfile.username,
    })
    .from(schema.deals)
    .innerJoin(buyerUser, eq(buyerUser.id, schema.deals.buyerId))
    .innerJoin(sellerUser, eq(sellerUser.id, schema.deals.sellerId))
    .leftJoin(buyerProfile, eq(buyerProfile.id, schema.deals.buyerId))
    .leftJoin(sellerProfile, eq(sellerProfile.id, schema.deals.sellerId))
    .where(inArray(schema.deals.id, [...matches.keys()]))
    .orderBy(desc(schema.deals.createdAt), desc(schema.deals.id))
    .limit(query.limit);
  const now = deps.now();
  for (const matched of new Set(rows.map((row) => matches.get(row.deal.id)!))) {
    const dealIds = rows.filter((row) => matches.get(row.deal.id) === matched).map((row) => row.deal.id);
    await recordStaffRead(db, { staffId, dealIds, via: 'search', matched, now });
  }
  return {
    data: rows.map(({ deal, ...row }) => ({
      id: deal.id,
      status: deal.status,
      asset_chain: deal.assetChain,
      asset_symbol: deal.assetSymbol,
      asset_amount: deal.assetAmount,
      stable_chain: deal.stableChain,
      stable_symbol: deal.stableSymbol,
      stable_amount: deal.stableAmount,
      buyer: { id: deal.buyerId, email: row.buyerEmail, username: row.buyerUsername },
      seller: { id: deal.sellerId, email: row.sellerEmail, username: row.sellerUsername },
      created_at: deal.createdAt.toISOString(),
      matched: matches.get(deal.id)!,
    })),
  };
}
