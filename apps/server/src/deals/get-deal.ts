import { type Db, schema } from '@covenant/db';
import { AppError, type DealWithHistory } from '@covenant/domain';
import { and, asc, eq, or } from 'drizzle-orm';
import { presentDeal, selectDealViews } from './deal-view.js';

/** One of the caller's deals with its history; anybody else's deal is NOT_FOUND, never FORBIDDEN. */
export async function getDeal(db: Db, userId: string, dealId: string): Promise<DealWithHistory> {
  const [row] = await selectDealViews(
    db,
    and(eq(schema.deals.id, dealId), or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId))),
  );
  if (!row) throw new AppError('NOT_FOUND', 'Deal not found');
  const history = await db
    .select()
    .from(schema.dealHistory)
    .where(eq(schema.dealHistory.dealId, dealId))
    .orderBy(asc(schema.dealHistory.seq));
  return {
    ...presentDeal(row, userId),
    history: history.map((entry) => ({
      seq: entry.seq,
      action: entry.action,
      actor_id: entry.actorId,
      created_at: entry.createdAt.toISOString(),
      details: entry.details,
    })),
  };
}
