import { schema } from '@covenant/db';
import type { TravelItem, TravelRequest } from '@covenant/domain';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { findPartyDeal } from '../disputes/find-party-deal.js';
import { checkTravelDeal } from './check-travel-deal.js';
import { loadTravelItem, partyView } from './present-travel-items.js';
import type { TravelDeps } from './travel-deps.js';

/**
 * A party asks the concierge for one item of travel (a flight, a hotel, ground transport) for
 * either party, for a deal whose terms require a meeting. Recorded under the deal's lock with its
 * audit entry; the item waits in the concierge's queue.
 */
export async function requestTravel(
  deps: Pick<TravelDeps, 'db' | 'now'>,
  userId: string,
  dealId: string,
  request: TravelRequest,
): Promise<TravelItem> {
  const now = deps.now();
  const itemId = await deps.db.transaction(async (tx) => {
    const deal = await findPartyDeal(tx, userId, dealId, { lock: true });
    checkTravelDeal(deal);
    const [row] = await tx
      .insert(schema.travelItems)
      .values({
        dealId,
        kind: request.kind,
        traveller: request.traveller,
        details: request.details,
        requestedBy: userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: schema.travelItems.id });
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'travel_requested',
      payload: {
        item_id: row!.id,
        kind: request.kind,
        traveller: request.traveller,
        details: request.details,
        requested_by: deal.role,
      },
      createdAt: now,
    });
    return row!.id;
  });
  return partyView(await loadTravelItem(deps.db, itemId));
}
