import { schema } from '@covenant/db';
import { openTravelItemStatuses } from '@covenant/domain';
import { and, eq, inArray, or } from 'drizzle-orm';
import { appendDealEvent, type Transaction } from '../deals/append-deal-event.js';

/**
 * A deal that is cancelled has nothing left to travel for, and an escrow that settles (or whose
 * dispute a mediator decided) pays no more travel: its items still waiting for a quote or for
 * approvals are cancelled, each with an audit entry saying why (`reason`, by default the deal's
 * cancellation), in the transaction holding the deal's row lock. Items already approved or paid are
 * left to their payout, unless that payout was just superseded unsent (`unpaidApprovedPayouts`: the
 * deal was disputed or cancelled before it went): nothing will pay them, and they are cancelled too.
 */
export async function cancelOpenTravel(
  tx: Transaction,
  deal: {
    dealId: string;
    actorId: string | null;
    now: Date;
    reason?: string;
    unpaidApprovedPayouts?: readonly string[];
  },
): Promise<void> {
  const items = schema.travelItems;
  const unpaid = deal.unpaidApprovedPayouts ?? [];
  const cancelled = await tx
    .update(items)
    .set({ status: 'cancelled', updatedAt: deal.now })
    .where(
      and(
        eq(items.dealId, deal.dealId),
        unpaid.length === 0
          ? inArray(items.status, [...openTravelItemStatuses])
          : or(
              inArray(items.status, [...openTravelItemStatuses]),
              and(eq(items.status, 'approved'), inArray(items.payoutId, [...unpaid])),
            ),
      ),
    )
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
