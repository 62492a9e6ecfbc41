import { schema } from '@covenant/db';
import type { StaffTravelItem } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { lockTravelItem, requireTravelStatus } from './lock-travel-item.js';
import { loadTravelItem } from './present-travel-items.js';
import type { TravelDeps } from './travel-deps.js';

/** The concierge confirms the booking of an item whose payout to the provider has confirmed on-chain. */
export async function markTravelBooked(
  deps: Pick<TravelDeps, 'db' | 'now'>,
  conciergeId: string,
  itemId: string,
): Promise<StaffTravelItem> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { item, deal } = await lockTravelItem(tx, itemId);
    requireTravelStatus(item, ['paid'], 'An item can be marked booked');
    await tx
      .update(schema.travelItems)
      .set({ status: 'booked', bookedBy: conciergeId, bookedAt: now, updatedAt: now })
      .where(eq(schema.travelItems.id, itemId));
    await appendDealEvent(tx, {
      dealId: deal.id,
      actorId: conciergeId,
      action: 'travel_booked',
      payload: { item_id: itemId, kind: item.kind, provider: item.quoteProvider },
      createdAt: now,
    });
  });
  return loadTravelItem(deps.db, itemId);
}
