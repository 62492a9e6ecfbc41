import { type Db, schema } from '@covenant/db';
import type { DisputeStatus, StaffDisputeSummary } from '@covenant/domain';
import { asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';

const buyer = alias(schema.profiles, 'buyer_profile');
const seller = alias(schema.profiles, 'seller_profile');
const mediator = alias(schema.profiles, 'mediator_profile');

/** The mediators' queue: open disputes first, oldest first within each status, with their deal and parties. */
export async function listDisputeQueue(
  db: Db,
  options: { status?: DisputeStatus; limit: number },
): Promise<StaffDisputeSummary[]> {
  const disputes = schema.dealDisputes;
  const rows = await db
    .select({
      dispute: disputes,
      deal: schema.deals,
      buyerUsername: buyer.username,
      sellerUsername: seller.username,
      mediatorUsername: mediator.username,
    })
    .from(disputes)
    .innerJoin(schema.deals, eq(schema.deals.id, disputes.dealId))
    .leftJoin(buyer, eq(buyer.id, schema.deals.buyerId))
    .leftJoin(seller, eq(seller.id, schema.deals.sellerId))
    .leftJoin(mediator, eq(mediator.id, disputes.mediatorId))
    .where(options.status ? eq(disputes.status, options.status) : undefined)
    .orderBy(
      sql`case when ${disputes.status} = 'open' then 0 else 1 end`,
      asc(disputes.createdAt),
      asc(disputes.id),
    )
    .limit(options.limit);
  return rows.map(({ dispute, deal, ...names }) => ({
    id: dispute.id,
    status: dispute.status,
    reason: dispute.reason,
    created_at: dispute.createdAt.toISOString(),
    decided_at: dispute.decidedAt?.toISOString() ?? null,
    mediator: dispute.mediatorId ? { id: dispute.mediatorId, username: names.mediatorUsername } : null,
    deal: {
      id: deal.id,
      status: deal.status,
      asset_chain: deal.assetChain,
      asset_symbol: deal.assetSymbol,
      asset_amount: deal.assetAmount,
      stable_chain: deal.stableChain,
      stable_symbol: deal.stableSymbol,
      stable_amount: deal.stableAmount,
      buyer: { id: deal.buyerId, username: names.buyerUsername },
      seller: { id: deal.sellerId, username: names.sellerUsername },
    },
  }));
}
