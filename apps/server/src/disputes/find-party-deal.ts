import { type Db, schema } from '@covenant/db';
import { AppError, type DealActor } from '@covenant/domain';
import { and, eq, or } from 'drizzle-orm';
import type { Transaction } from '../deals/append-deal-event.js';

export type PartyDeal = typeof schema.deals.$inferSelect & { role: Extract<DealActor, 'buyer' | 'seller'> };

/**
 * One of the caller's deals and the caller's side in it; anybody else's deal is NOT_FOUND, never
 * FORBIDDEN. With `lock`, the deal's row stays locked until the transaction `db` ends.
 */
export async function findPartyDeal(
  db: Pick<Db, 'select'> | Transaction,
  userId: string,
  dealId: string,
  options: { lock?: boolean } = {},
): Promise<PartyDeal> {
  const query = db
    .select()
    .from(schema.deals)
    .where(
      and(
        eq(schema.deals.id, dealId),
        or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId)),
      ),
    );
  const [deal] = options.lock ? await query.for('update') : await query;
  if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
  return { ...deal, role: deal.buyerId === userId ? 'buyer' : 'seller' };
}
