import { schema } from '@covenant/db';
import { AppError, type Dispute } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import type { DisputeDeps } from './dispute-deps.js';
import { findPartyDeal } from './find-party-deal.js';
import { linkDisputeEvidence } from './link-dispute-evidence.js';
import { loadDisputes } from './present-disputes.js';
import {
  checkEvidence,
  discardDisputeEvidence,
  type EvidenceUpload,
  storeDisputeEvidence,
} from './store-dispute-evidence.js';

const notOpen = () =>
  new AppError('CONFLICT', 'Evidence can only be added while the dispute is open', {
    reason: 'dispute_decided',
  });

/** A party adds 1–5 evidence files to its deal's dispute while the mediator has not decided it. */
export async function addDisputeEvidence(
  deps: DisputeDeps,
  userId: string,
  dealId: string,
  disputeId: string,
  uploads: readonly EvidenceUpload[],
): Promise<Dispute> {
  if (uploads.length === 0) {
    throw new AppError('VALIDATION_FAILED', 'Attach between 1 and 5 evidence files', {
      issues: [{ path: '/evidence', message: 'Attach between 1 and 5 evidence files' }],
    });
  }
  const checked = checkEvidence(uploads);
  await findPartyDeal(deps.db, userId, dealId);
  const where = and(eq(schema.dealDisputes.id, disputeId), eq(schema.dealDisputes.dealId, dealId));
  const [before] = await deps.db
    .select({ status: schema.dealDisputes.status })
    .from(schema.dealDisputes)
    .where(where);
  if (!before) throw new AppError('NOT_FOUND', 'Dispute not found');
  if (before.status !== 'open') throw notOpen();

  const stored = await storeDisputeEvidence(deps, userId, checked);
  const now = deps.now();
  try {
    await deps.db.transaction(async (tx) => {
      await findPartyDeal(tx, userId, dealId, { lock: true });
      const [dispute] = await tx
        .select({ status: schema.dealDisputes.status })
        .from(schema.dealDisputes)
        .where(where);
      if (dispute?.status !== 'open') throw notOpen();
      const evidence = await linkDisputeEvidence(tx, disputeId, userId, stored, now);
      await appendDealEvent(tx, {
        dealId,
        actorId: userId,
        action: 'dispute_evidence_added',
        payload: { dispute_id: disputeId, evidence },
        createdAt: now,
      });
    });
  } catch (error) {
    await discardDisputeEvidence(deps, stored);
    throw error;
  }
  const [view] = await loadDisputes(deps.db, eq(schema.dealDisputes.id, disputeId));
  return view!;
}
