import { type Db, schema } from '@covenant/db';
import type { Deal, DealTerms } from '@covenant/domain';
import { eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';

/** A deal as the API shows it to one of its parties. */
export type DealView = Deal;

const buyerProfile = alias(schema.profiles, 'buyer_profile');
const sellerProfile = alias(schema.profiles, 'seller_profile');

/** Deals with both parties' public profile fields, filtered and ordered by the caller. */
export function selectDealViews(db: Db, where: SQL | undefined) {
  return db
    .select({
      deal: schema.deals,
      buyerUsername: buyerProfile.username,
      buyerTier: buyerProfile.tradingTier,
      sellerUsername: sellerProfile.username,
      sellerTier: sellerProfile.tradingTier,
    })
    .from(schema.deals)
    .leftJoin(buyerProfile, eq(buyerProfile.id, schema.deals.buyerId))
    .leftJoin(sellerProfile, eq(sellerProfile.id, schema.deals.sellerId))
    .where(where)
    .$dynamic();
}

type DealViewRow = Awaited<ReturnType<typeof selectDealViews>>[number];

export function presentDeal(row: DealViewRow, viewerId: string): DealView {
  const { deal } = row;
  return {
    id: deal.id,
    buyer_id: deal.buyerId,
    seller_id: deal.sellerId,
    counterparty_id: viewerId === deal.buyerId ? deal.sellerId : deal.buyerId,
    buyer: { id: deal.buyerId, username: row.buyerUsername, trading_tier: row.buyerTier },
    seller: { id: deal.sellerId, username: row.sellerUsername, trading_tier: row.sellerTier },
    ...termsOf(deal),
    status: deal.status,
    created_at: deal.createdAt.toISOString(),
    updated_at: deal.updatedAt.toISOString(),
    completed_at: deal.completedAt?.toISOString() ?? null,
  };
}

/** The tradeable fields of a stored deal, named as the API names them. */
export function termsOf(deal: typeof schema.deals.$inferSelect): DealTerms {
  return {
    asset_chain: deal.assetChain,
    asset_symbol: deal.assetSymbol,
    asset_amount: deal.assetAmount,
    stable_chain: deal.stableChain,
    stable_symbol: deal.stableSymbol,
    stable_amount: deal.stableAmount,
    meeting_required: deal.meetingRequired,
    travel_location: deal.travelLocation,
  };
}
