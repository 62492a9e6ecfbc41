import { schema } from '@covenant/db';
import { AppError, type MeetingViewBase } from '@covenant/domain';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { findPartyDeal } from '../disputes/find-party-deal.js';
import type { MeetingDeps } from './meeting-deps.js';
import { loadMeetingRecords, meetingSettled, presentMeeting } from './meeting-state.js';

/** Deal statuses in which the meeting can still be waived: before settlement. */
const waivable = new Set(['draft', 'cis_submitted', 'terms_agreed', 'escrow_funded']);

/**
 * The caller waives the deal's meeting. Once both parties have, settlement no longer waits for
 * check-in. A second waiver by the same party changes nothing (and records nothing).
 */
export async function waiveMeeting(
  deps: MeetingDeps,
  userId: string,
  dealId: string,
): Promise<MeetingViewBase> {
  const now = deps.now();
  const result = await deps.db.transaction(async (tx) => {
    const deal = await findPartyDeal(tx, userId, dealId, { lock: true });
    if (!deal.meetingRequired) {
      throw new AppError('MEETING_NOT_REQUIRED', 'This deal’s terms do not require a meeting.');
    }
    if (!waivable.has(deal.status)) {
      throw new AppError('MEETING_NOT_OPEN', `The meeting of a ${deal.status} deal cannot be waived.`, {
        status: deal.status,
      });
    }
    const before = await loadMeetingRecords(tx, dealId);
    if (!before.waivedBy.includes(deal.role)) {
      await tx.insert(schema.meetingWaivers).values({ dealId, party: deal.role, userId, createdAt: now });
      await appendDealEvent(tx, {
        dealId,
        actorId: userId,
        action: 'meeting_waived',
        payload: { party: deal.role, both_waived: before.waivedBy.length === 1 },
        createdAt: now,
      });
    }
    const after = await loadMeetingRecords(tx, dealId);
    return {
      view: presentMeeting(deps.masterKey, deal, after, now),
      unblocked: !meetingSettled(before) && meetingSettled(after),
    };
  });
  if (result.unblocked) deps.settlementUnblocked();
  return result.view;
}
