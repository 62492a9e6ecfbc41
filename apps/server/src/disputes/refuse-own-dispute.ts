import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { eq } from 'drizzle-orm';

/**
 * A mediator who is a party of the disputed deal may neither decide it (`lockDisputeForMediator`)
 * nor read its case or evidence: the case shows both parties' CIS and the other side's evidence,
 * which the deal's own parties see only through their own routes. Not found when there is no such
 * dispute.
 */
export async function refuseOwnDispute(db: Db, staffId: string, disputeId: string): Promise<void> {
  const [found] = await db
    .select({ buyerId: schema.deals.buyerId, sellerId: schema.deals.sellerId })
    .from(schema.dealDisputes)
    .innerJoin(schema.deals, eq(schema.deals.id, schema.dealDisputes.dealId))
    .where(eq(schema.dealDisputes.id, disputeId));
  if (!found) throw new AppError('NOT_FOUND', 'Dispute not found');
  if (found.buyerId === staffId || found.sellerId === staffId) {
    throw new AppError('FORBIDDEN', 'A mediator cannot read a dispute of their own deal');
  }
}
