import { schema } from '@covenant/db';
import { AppError, type Dispute } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import type { DisputeDeps } from './dispute-deps.js';
import { lockDisputeForMediator } from './lock-dispute-for-mediator.js';
import { loadDisputes } from './present-disputes.js';

/**
 * A mediator takes an open case (or takes it over from another mediator); recorded in the audit trail.
 * Taking a case one already holds changes nothing.
 */
export async function assignDispute(
  deps: DisputeDeps,
  mediatorId: string,
  disputeId: string,
): Promise<Dispute> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { dispute, deal } = await lockDisputeForMediator(tx, mediatorId, disputeId);
    if (dispute.status !== 'open') {
      throw new AppError('CONFLICT', 'This dispute is already decided', { reason: 'dispute_decided' });
    }
    if (dispute.mediatorId === mediatorId) return;
    await tx
      .update(schema.dealDisputes)
      .set({ mediatorId, updatedAt: now })
      .where(eq(schema.dealDisputes.id, disputeId));
    await appendDealEvent(tx, {
      dealId: deal.id,
      actorId: mediatorId,
      action: 'dispute_assigned',
      payload: { dispute_id: disputeId, mediator_id: mediatorId, previous_mediator_id: dispute.mediatorId },
      createdAt: now,
    });
  });
  const [view] = await loadDisputes(deps.db, eq(schema.dealDisputes.id, disputeId));
  return view!;
}
