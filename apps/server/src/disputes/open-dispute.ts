import { schema } from '@covenant/db';
import { AppError, type Dispute, nextDealStatus, type OpenDispute } from '@covenant/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { isUniqueViolation } from '../auth/unique-violation.js';
import { appendDealEvent, type Transaction } from '../deals/append-deal-event.js';
import { sentPayoutStatuses } from '../escrow/approve-payout.js';
import type { DisputeDeps } from './dispute-deps.js';
import { findPartyDeal } from './find-party-deal.js';
import { linkDisputeEvidence } from './link-dispute-evidence.js';
import { loadDisputes } from './present-disputes.js';
import {
  checkEvidence,
  discardDisputeEvidence,
  type EvidenceUpload,
  type StoredEvidence,
  storeDisputeEvidence,
} from './store-dispute-evidence.js';

const alreadyOpen = () =>
  new AppError('CONFLICT', 'This deal already has an open dispute', { reason: 'dispute_open' });

/**
 * A funded deal whose settlement has started (a leg's release is on its way or paid) can no longer
 * be disputed: the mediator could not undo the leg that went, and a dispute would hold back the
 * other, which is now owed. Checked with the deal locked: the engine marks a settlement's first leg
 * as sent under the same lock, so one of the two comes first.
 */
async function assertSettlementNotUnderWay(tx: Transaction, dealId: string): Promise<void> {
  const [sent] = await tx
    .select({ leg: schema.escrowPayouts.leg })
    .from(schema.escrowPayouts)
    .innerJoin(schema.escrows, eq(schema.escrows.id, schema.escrowPayouts.escrowId))
    .where(
      and(
        eq(schema.escrows.dealId, dealId),
        eq(schema.escrowPayouts.source, 'settlement'),
        inArray(schema.escrowPayouts.status, [...sentPayoutStatuses]),
      ),
    )
    .limit(1);
  if (sent) {
    throw new AppError(
      'CONFLICT',
      'The settlement is under way: a leg has been paid out, so the deal can no longer be disputed. The other leg follows; contact support if it does not arrive',
      { reason: 'settlement_under_way' },
    );
  }
}

/**
 * A party disputes its deal (once terms are agreed or the escrow is funded): the deal becomes
 * `disputed` and waits in the mediators' queue. Evidence is stored encrypted first; the transaction
 * then locks the deal, moves it through the transition table and records the dispute, its evidence
 * and the audit entry together. Of two simultaneous disputes only the first wins.
 */
export async function openDispute(
  deps: DisputeDeps,
  userId: string,
  dealId: string,
  dispute: OpenDispute,
  uploads: readonly EvidenceUpload[],
): Promise<Dispute> {
  const checked = checkEvidence(uploads);
  // Refused early (stranger, wrong status) without storing anything; decided again under the lock.
  const deal = await findPartyDeal(deps.db, userId, dealId);
  nextDealStatus(deal.status, 'open_dispute', deal.role);

  const stored: StoredEvidence[] = await storeDisputeEvidence(deps, userId, checked);
  const now = deps.now();
  let disputeId: string;
  try {
    disputeId = await deps.db.transaction(async (tx) => {
      const locked = await findPartyDeal(tx, userId, dealId, { lock: true });
      const status = nextDealStatus(locked.status, 'open_dispute', locked.role);
      await assertSettlementNotUnderWay(tx, dealId);
      await tx.update(schema.deals).set({ status, updatedAt: now }).where(eq(schema.deals.id, dealId));
      const [row] = await tx
        .insert(schema.dealDisputes)
        .values({
          dealId,
          openedBy: userId,
          reason: dispute.reason,
          statusBefore: locked.status,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: schema.dealDisputes.id });
      const evidence = await linkDisputeEvidence(tx, row!.id, userId, stored, now);
      await appendDealEvent(tx, {
        dealId,
        actorId: userId,
        action: 'dispute_opened',
        payload: {
          dispute_id: row!.id,
          reason: dispute.reason,
          evidence,
          from_status: locked.status,
          to_status: status,
        },
        createdAt: now,
      });
      return row!.id;
    });
  } catch (error) {
    // The rows were rolled back; the evidence must not outlive them.
    await discardDisputeEvidence(deps, stored);
    if (isUniqueViolation(error, 'deal_disputes_one_open_idx')) throw alreadyOpen();
    throw error;
  }
  const [view] = await loadDisputes(deps.db, eq(schema.dealDisputes.id, disputeId));
  return view!;
}
