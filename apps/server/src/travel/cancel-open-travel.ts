import { schema } from '@covenant/db';
import { openTravelItemStatuses } from '@covenant/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { appendDealEvent, type Transaction } from '../deals/append-deal-event.js';

/**
 * A deal that is cancelled has nothing left to travel for, and an escrow that settles (or whose
 * dispute a mediator decided) pays no more travel: its items still waiting for a quote or for
 * approvals are cancelled, each with an audit entry saying why (`reason`, by default the deal's
 * cancellation), in the transaction holding the deal's row lock. Items already approved or paid are
 * left to their payout.
 */
export async function cancelOpenTravel(
  tx: Transaction,
  deal: { dealId: string; actorId: string | null; now: Date; reason?: string },
): Promise<void> {
  const items = schema.travelItems;
  const cancelled = await tx
    .update(items)
    .set({ status: 'cancelled', updatedAt: deal.now })
    .where(and(eq(items.dealId, deal.dealId), inArray(items.status, [...openTravelItemStatuses])))
    .returning({ id: items.id, kind: items.kind });
  for (const item of cancelled) {
    await appendDealEvent(tx, {
      dealId: deal.dealId,
      actorId: deal.actorId,
      action: 'travel_cancelled',
      payload: { item_id: item.id, kind: item.kind, reason: deal.reason ?? 'deal_cancelled' },
      createdAt: deal.now,
    });
  }
}
