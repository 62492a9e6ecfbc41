import { schema } from '@covenant/db';
import { openTravelItemStatuses, type TravelItem } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { findPartyDeal } from '../disputes/find-party-deal.js';
import { lockTravelItem, requireTravelStatus } from './lock-travel-item.js';
import { loadTravelItem, partyView } from './present-travel-items.js';
import type { TravelDeps } from './travel-deps.js';

/**
 * Either party cancels an item while nothing is committed to it yet (requested or quoted); once both
 * approved a quote its payout is on its way, and only the lead's payout flow may end it.
 */
export async function cancelTravel(
  deps: Pick<TravelDeps, 'db' | 'now'>,
  userId: string,
  dealId: string,
  itemId: string,
): Promise<TravelItem> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const deal = await findPartyDeal(tx, userId, dealId, { lock: true });
    const { item } = await lockTravelItem(tx, itemId, dealId);
    requireTravelStatus(item, openTravelItemStatuses, 'An item can be cancelled');
    await tx
      .update(schema.travelItems)
      .set({ status: 'cancelled', updatedAt: now })
      .where(eq(schema.travelItems.id, itemId));
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'travel_cancelled',
      payload: { item_id: itemId, kind: item.kind, from_status: item.status, cancelled_by: deal.role },
      createdAt: now,
    });
  });
  return partyView(await loadTravelItem(deps.db, itemId));
}
