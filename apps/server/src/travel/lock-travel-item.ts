import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import type { Transaction } from '../deals/append-deal-event.js';

export interface LockedTravelItem {
  item: typeof schema.travelItems.$inferSelect;
  deal: typeof schema.deals.$inferSelect;
}

/**
 * A travel item and its deal, with the deal's row locked until `tx` ends (every change to an item
 * appends to its deal's audit trail, which that lock serialises). With `dealId` the item must belong
 * to that deal; a missing item is NOT_FOUND.
 */
export async function lockTravelItem(
  tx: Transaction,
  itemId: string,
  dealId?: string,
): Promise<LockedTravelItem> {
  const items = schema.travelItems;
  const byId = and(eq(items.id, itemId), dealId === undefined ? undefined : eq(items.dealId, dealId));
  const [found] = await tx.select({ dealId: items.dealId }).from(items).where(byId);
  if (!found) throw new AppError('NOT_FOUND', 'Travel item not found');
  const [deal] = await tx.select().from(schema.deals).where(eq(schema.deals.id, found.dealId)).for('update');
  // Read again under the lock: a concurrent change to the item committed before the lock was granted.
  const [item] = await tx.select().from(items).where(byId);
  return { item: item!, deal: deal! };
}

/** Refuses a change to an item whose status is not one of `allowed`, saying which status it has. */
export function requireTravelStatus(
  item: typeof schema.travelItems.$inferSelect,
  allowed: readonly schema.TravelItemStatus[],
  what: string,
): void {
  if (!allowed.includes(item.status)) {
    throw new AppError(
      'CONFLICT',
      `${what} only when the item is ${allowed.join(' or ')}; it is ${item.status}`,
      {
        reason: 'travel_status',
        status: item.status,
      },
    );
  }
}
