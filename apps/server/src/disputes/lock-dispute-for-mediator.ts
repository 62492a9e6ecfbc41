import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../deals/append-deal-event.js';

export type LockedDispute = {
  dispute: typeof schema.dealDisputes.$inferSelect;
  deal: typeof schema.deals.$inferSelect;
};

/**
 * Inside a mediator's transaction: the dispute and its deal, the deal's row locked (so the audit
 * chain and the status move together), the dispute read again after the lock so a concurrent
 * decision is seen. A mediator who is a party of the deal is refused: nobody judges their own case.
 */
export async function lockDisputeForMediator(
  tx: Transaction,
  mediatorId: string,
  disputeId: string,
): Promise<LockedDispute> {
  const [found] = await tx
    .select({ dealId: schema.dealDisputes.dealId })
    .from(schema.dealDisputes)
    .where(eq(schema.dealDisputes.id, disputeId));
  if (!found) throw new AppError('NOT_FOUND', 'Dispute not found');
  const [deal] = await tx.select().from(schema.deals).where(eq(schema.deals.id, found.dealId)).for('update');
  if (!deal) throw new AppError('NOT_FOUND', 'Dispute not found');
  if (deal.buyerId === mediatorId || deal.sellerId === mediatorId) {
    throw new AppError('FORBIDDEN', 'A mediator cannot take a dispute of their own deal');
  }
  const [dispute] = await tx.select().from(schema.dealDisputes).where(eq(schema.dealDisputes.id, disputeId));
  return { dispute: dispute!, deal };
}
