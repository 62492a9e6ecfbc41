import { schema } from '@covenant/db';
import type { TravelItem } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { findPartyDeal } from '../disputes/find-party-deal.js';
import { loadTravelItems, partyView } from './present-travel-items.js';
import type { TravelDeps } from './travel-deps.js';

/** A deal's travel items, oldest first, for its parties (anybody else: NOT_FOUND). */
export async function listDealTravel(
  deps: Pick<TravelDeps, 'db'>,
  userId: string,
  dealId: string,
): Promise<TravelItem[]> {
  await findPartyDeal(deps.db, userId, dealId);
  const items = await loadTravelItems(deps.db, eq(schema.travelItems.dealId, dealId));
  return items.map(partyView);
}
