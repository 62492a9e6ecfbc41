import { type Db, schema } from '@covenant/db';
import { AppError, nextDealStatus } from '@covenant/domain';
import { and, eq, or } from 'drizzle-orm';
import { cancelOpenTravel } from '../travel/cancel-open-travel.js';
import { appendDealEvent } from './append-deal-event.js';
import { type DealView, presentDeal, selectDealViews } from './deal-view.js';

/**
 * A party cancels its deal before any funding, with a reason that goes into the audit trail. The
 * deal's row is locked while the transition is decided, so of two concurrent requests (two cancels,
 * or a cancel and an acceptance) only the first moves the deal and the second meets the new status.
 * Travel still waiting for a quote or approvals is cancelled with the deal.
 */
export async function cancelDeal(
  deps: { db: Db; now: () => Date },
  userId: string,
  dealId: string,
  reason: string,
): Promise<DealView> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const [deal] = await tx
      .select({ status: schema.deals.status, buyerId: schema.deals.buyerId })
      .from(schema.deals)
      .where(
        and(
          eq(schema.deals.id, dealId),
          or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId)),
        ),
      )
      .for('update');
    if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
    const status = nextDealStatus(deal.status, 'cancel', userId === deal.buyerId ? 'buyer' : 'seller');
    await tx.update(schema.deals).set({ status, updatedAt: now }).where(eq(schema.deals.id, dealId));
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'cancelled',
      payload: { reason, from_status: deal.status, to_status: status },
      createdAt: now,
    });
    await cancelOpenTravel(tx, { dealId, actorId: userId, now });
  });
  const [row] = await selectDealViews(deps.db, eq(schema.deals.id, dealId));
  return presentDeal(row!, userId);
}
