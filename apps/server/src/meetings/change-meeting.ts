import { schema } from '@covenant/db';
import { AppError, type Meeting, type MeetingViewBase, meetingWindow } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { appendDealEvent, type Transaction } from '../deals/append-deal-event.js';
import { checkMeetingDate } from '../deals/deal-terms.js';
import { meetingOf } from '../deals/deal-view.js';
import { findPartyDeal } from '../disputes/find-party-deal.js';
import type { MeetingDeps } from './meeting-deps.js';
import { loadMeetingRecords, meetingSettled, presentMeeting } from './meeting-state.js';

/**
 * After funding the terms no longer change, but the meeting may, by both parties' agreement: one
 * proposes (replacing any pending proposal), the other accepts. Both steps are in the audit trail.
 * Before funding the meeting changes with the terms (a new version both accept).
 */
export async function proposeMeetingChange(
  deps: MeetingDeps,
  userId: string,
  dealId: string,
  meeting: Meeting,
): Promise<MeetingViewBase> {
  const now = deps.now();
  checkMeetingDate(meeting, now);
  return deps.db.transaction(async (tx) => {
    const deal = await findPartyDeal(tx, userId, dealId, { lock: true });
    assertChangeable(deal);
    const records = await loadMeetingRecords(tx, dealId);
    await assertBeforeRefund(tx, dealId, meeting);
    if (meetingSettled(records)) {
      throw new AppError('MEETING_NOT_OPEN', 'The meeting already took place or was waived by both parties.');
    }
    const [updated] = await tx
      .update(schema.deals)
      .set({ meetingProposal: { ...meeting }, meetingProposedBy: userId, updatedAt: now })
      .where(eq(schema.deals.id, dealId))
      .returning();
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'meeting_change_proposed',
      payload: { party: deal.role, meeting: { ...meeting } },
      createdAt: now,
    });
    return presentMeeting(deps.masterKey, updated!, records, now);
  });
}

/** The other party accepts the pending change: it becomes the deal's meeting. */
export async function acceptMeetingChange(
  deps: MeetingDeps,
  userId: string,
  dealId: string,
): Promise<MeetingViewBase> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const deal = await findPartyDeal(tx, userId, dealId, { lock: true });
    assertChangeable(deal);
    if (!deal.meetingProposal || !deal.meetingProposedBy) {
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        'No change of the meeting is waiting for your agreement',
      );
    }
    if (deal.meetingProposedBy === userId) {
      throw new AppError('INVALID_STATE_TRANSITION', 'You cannot accept your own proposal');
    }
    const from = meetingOf(deal);
    const [updated] = await tx
      .update(schema.deals)
      .set({
        meeting: deal.meetingProposal,
        travelLocation: String(deal.meetingProposal.location),
        meetingProposal: null,
        meetingProposedBy: null,
        updatedAt: now,
      })
      .where(eq(schema.deals.id, dealId))
      .returning();
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'meeting_changed',
      payload: {
        party: deal.role,
        from: from ? { ...from } : null,
        to: { ...deal.meetingProposal } as never,
      },
      createdAt: now,
    });
    return presentMeeting(deps.masterKey, updated!, await loadMeetingRecords(tx, dealId), now);
  });
}

function assertChangeable(deal: typeof schema.deals.$inferSelect): void {
  if (!deal.meetingRequired) {
    throw new AppError('MEETING_NOT_REQUIRED', 'This deal’s terms do not require a meeting.');
  }
  if (deal.status !== 'escrow_funded') {
    throw new AppError(
      'INVALID_STATE_TRANSITION',
      deal.status === 'draft' || deal.status === 'cis_submitted' || deal.status === 'terms_agreed'
        ? 'Before funding, change the meeting by proposing new terms'
        : `The meeting of a ${deal.status} deal cannot change`,
      { status: deal.status },
    );
  }
}

/**
 * The escrow can be refunded on-chain from its legs' `refund_after`, fixed when it was created: a
 * new meeting must end (its check-in window close) a day before, so the parties can still settle.
 */
async function assertBeforeRefund(tx: Transaction, dealId: string, meeting: Meeting): Promise<void> {
  const rows = await tx
    .select({ refundAfter: schema.escrowLegs.refundAfter })
    .from(schema.escrowLegs)
    .innerJoin(schema.escrows, eq(schema.escrows.id, schema.escrowLegs.escrowId))
    .where(eq(schema.escrows.dealId, dealId));
  const times = rows
    .map((row) => row.refundAfter?.getTime())
    .filter((time): time is number => time !== undefined);
  if (times.length === 0) return;
  const latestClose = new Date(Math.min(...times) - 86_400_000);
  if (meetingWindow(meeting).closes > latestClose) {
    throw new AppError(
      'VALIDATION_FAILED',
      `The escrow can be refunded from ${new Date(Math.min(...times)).toISOString().slice(0, 10)}: the meeting must end by ${latestClose.toISOString().slice(0, 10)}`,
      { fields: { 'meeting.starts_on': 'too late for this escrow' } },
    );
  }
}
