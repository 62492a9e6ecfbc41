import { schema } from '@covenant/db';
import type { StaffTravelItem, TravelItemStatusName } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { loadTravelItems } from './present-travel-items.js';
import type { TravelDeps } from './travel-deps.js';

/** The concierge's queue: items still to quote or being approved first, oldest first within each group. */
export async function listTravelQueue(
  deps: Pick<TravelDeps, 'db'>,
  options: { status?: TravelItemStatusName; limit: number },
): Promise<StaffTravelItem[]> {
  return loadTravelItems(
    deps.db,
    options.status ? eq(schema.travelItems.status, options.status) : undefined,
    { queue: true, limit: options.limit },
  );
}
