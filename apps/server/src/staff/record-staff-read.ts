import { type Db, schema } from '@covenant/db';
import { inArray } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';

/**
 * Staff reading a deal is itself recorded in the deal's audit trail (`staff_viewed`), like every
 * other staff action on a deal: who read it, and how it was reached (opened by id, or listed by a
 * search and what matched; never the search text, which may name someone else). Each deal's row is
 * locked while its entry is appended, as every append does.
 */
export async function recordStaffRead(
  db: Db,
  read: {
    staffId: string;
    dealIds: readonly string[];
    via: 'deal_view' | 'search';
    now: Date;
    matched?: string;
  },
): Promise<void> {
  if (read.dealIds.length === 0) return;
  await db.transaction(async (tx) => {
    const locked = await tx
      .select({ id: schema.deals.id })
      .from(schema.deals)
      .where(inArray(schema.deals.id, [...read.dealIds]))
      .orderBy(schema.deals.id)
      .for('update');
    for (const { id } of locked) {
      await appendDealEvent(tx, {
        dealId: id,
        actorId: read.staffId,
        action: 'staff_viewed',
        payload: { via: read.via, ...(read.matched ? { matched: read.matched } : {}) },
        createdAt: read.now,
      });
    }
  });
}
