import { schema } from '@covenant/db';
import { AppError, type DealCis, nextDealStatus } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import type { CisDeps } from './cis-deps.js';
import { lockPartyDeal, otherParty } from './deal-party.js';
import { loadDealCis } from './load-deal-cis.js';

/** A verdict on the sheet `cisId`: the one the reviewer read. */
export type CisReview =
  | { verdict: 'approved'; cisId: string }
  | { verdict: 'rejected'; cisId: string; comment: string };

/**
 * A party approves or rejects the CIS the counterparty attached to a draft deal. The approval that
 * leaves both sheets approved completes the exchange: the deal becomes `cis_submitted` in the same
 * transaction. The deal's row lock orders two simultaneous approvals, so exactly one completes it.
 * The reviewer must have attached its own sheet first (409 CONFLICT, reason `own_cis_missing`), and
 * the review names the sheet it is about: a pending or rejected sheet may be replaced, and a verdict
 * on the one read must not fall on its replacement (409 CONFLICT, reason `cis_changed`).
 * Audit payloads name the party whose sheet was reviewed and the sheet; the entry's actor is the
 * reviewer.
 */
export async function reviewDealCis(
  deps: Pick<CisDeps, 'db' | 'fileStore' | 'now'>,
  userId: string,
  dealId: string,
  review: CisReview,
): Promise<DealCis> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const deal = await lockPartyDeal(tx, userId, dealId);
    const reviewedStatus = nextDealStatus(deal.status, 'review_cis', deal.party);
    const reviewed = otherParty(deal.party);
    const links = await tx
      .select({ party: schema.dealCis.party, status: schema.dealCis.status, cisId: schema.dealCis.cisId })
      .from(schema.dealCis)
      .where(eq(schema.dealCis.dealId, dealId));
    const mine = links.find((link) => link.party === deal.party);
    // The counterparty's sheet is shown only once the reviewer has attached its own (ADR 022): a
    // verdict before that would be on a sheet it cannot have read.
    if (!mine) {
      throw new AppError('CONFLICT', 'Attach your own CIS before reviewing the other party’s', {
        reason: 'own_cis_missing',
      });
    }
    const theirs = links.find((link) => link.party === reviewed);
    if (!theirs) {
      throw new AppError('CONFLICT', 'The other party has not attached a CIS yet', { reason: 'cis_missing' });
    }
    if (theirs.cisId !== review.cisId) {
      throw new AppError(
        'CONFLICT',
        'The other party has attached another CIS since you opened it: review the sheet attached now',
        { reason: 'cis_changed' },
      );
    }
    if (theirs.status === review.verdict) {
      throw new AppError('CONFLICT', `You have already ${review.verdict} this CIS`, {
        reason: `cis_already_${review.verdict}`,
      });
    }
    await tx
      .update(schema.dealCis)
      .set({
        status: review.verdict,
        reviewComment: review.verdict === 'rejected' ? review.comment : null,
        reviewedAt: now,
      })
      .where(and(eq(schema.dealCis.dealId, dealId), eq(schema.dealCis.party, reviewed)));
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: review.verdict === 'approved' ? 'cis_approved' : 'cis_rejected',
      payload:
        review.verdict === 'approved'
          ? { party: reviewed, cis_id: review.cisId }
          : { party: reviewed, cis_id: review.cisId, comment: review.comment },
      createdAt: now,
    });
    const completes = review.verdict === 'approved' && mine.status === 'approved';
    const status = completes
      ? nextDealStatus(reviewedStatus, 'complete_cis_exchange', deal.party)
      : reviewedStatus;
    await tx.update(schema.deals).set({ status, updatedAt: now }).where(eq(schema.deals.id, dealId));
    if (completes) {
      await appendDealEvent(tx, {
        dealId,
        actorId: userId,
        action: 'cis_exchange_completed',
        payload: { from_status: deal.status, to_status: status },
        createdAt: now,
      });
    }
  });
  return loadDealCis(deps, dealId);
}
