import { schema } from '@covenant/db';
import {
  AppError,
  type DealParty,
  distanceMeters,
  type MeetingCheckIn,
  type MeetingCheckInBody,
} from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { meetingOf } from '../deals/deal-view.js';
import { findPartyDeal } from '../disputes/find-party-deal.js';
import { raiseStaffAlert } from '../escrow/staff-alerts.js';
import { sealText } from '../files/seal-text.js';
import { assertCheckInOpen } from './get-meeting.js';
import { parsePresentedCode, verifyMeetingCode } from './meeting-codes.js';
import type { MeetingDeps } from './meeting-deps.js';
import { loadMeetingRecords, meetingSettled, positionContext, presentMeeting } from './meeting-state.js';

/**
 * Records the caller's check-in at the deal's meeting, proven by the other party's current code
 * (scanned from its phone or typed). Under the deal's row lock, in this order: check-in open (funded,
 * inside the window), the code (the counterparty's, not expired, not the caller's own), not used
 * before, the caller not checked in yet. The position, when the browser shared one, is sealed; a
 * check-in outside the meeting's radius, or without a position, is still recorded but flagged for
 * the mediators (a staff alert). The audit trail records the check-in without the position, which
 * is personal data and must be erasable.
 */
export async function checkInAtMeeting(
  deps: MeetingDeps,
  userId: string,
  dealId: string,
  body: MeetingCheckInBody,
): Promise<MeetingCheckIn> {
  const now = deps.now();
  const code = parsePresentedCode(dealId, body.token);
  const outcome = await deps.db.transaction(async (tx) => {
    const deal = await findPartyDeal(tx, userId, dealId, { lock: true });
    const party: DealParty = deal.role;
    const records = await loadMeetingRecords(tx, dealId);
    assertCheckInOpen(presentMeeting(deps.masterKey, deal, records, now), now, deal.status);
    const meeting = meetingOf(deal)!;
    const step = verifyMeetingCode(deps.codeKey, dealId, party, code, now);
    const counterparty: DealParty = party === 'buyer' ? 'seller' : 'buyer';
    const [used] = await tx
      .select({ party: schema.meetingCheckIns.party })
      .from(schema.meetingCheckIns)
      .where(
        and(
          eq(schema.meetingCheckIns.dealId, dealId),
          eq(schema.meetingCheckIns.codeParty, counterparty),
          eq(schema.meetingCheckIns.codeStep, step),
        ),
      );
    if (used) {
      throw new AppError(
        'MEETING_CODE_USED',
        'This code was already used. Ask the other party to show their current code.',
      );
    }
    if (records.checkIns.some((row) => row.party === party)) {
      throw new AppError('ALREADY_CHECKED_IN', 'You have already checked in at this meeting.');
    }
    const position =
      body.latitude !== undefined && body.longitude !== undefined
        ? { latitude: body.latitude, longitude: body.longitude, accuracy: body.accuracy ?? null }
        : null;
    const distance = position ? Math.round(distanceMeters(position, meeting)) : null;
    const withinRadius = distance === null ? 'unknown' : distance <= deps.radiusMeters ? 'yes' : 'no';
    await tx.insert(schema.meetingCheckIns).values({
      dealId,
      party,
      userId,
      method: body.method,
      codeParty: counterparty,
      codeStep: step,
      positionSealed: position
        ? sealText(deps.masterKey, JSON.stringify(position), positionContext(dealId, party))
        : null,
      distanceMeters: distance,
      withinRadius,
      checkedInAt: now,
    });
    const bothCheckedIn = records.checkIns.length === 1;
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'meeting_checked_in',
      payload: { party, method: body.method, within_radius: withinRadius, both_checked_in: bothCheckedIn },
      createdAt: now,
    });
    return {
      party,
      withinRadius,
      distance,
      unblocked: bothCheckedIn && !meetingSettled(records),
    };
  });
  if (outcome.withinRadius !== 'yes') {
    await raiseStaffAlert(deps, {
      kind: 'meeting_check_in_flagged',
      subject: `${dealId}:${outcome.party}`,
      message:
        outcome.withinRadius === 'no'
          ? 'A meeting check-in was made outside the meeting’s radius'
          : 'A meeting check-in was made without a position',
      details: {
        deal_id: dealId,
        party: outcome.party,
        distance_meters: outcome.distance,
        radius_meters: deps.radiusMeters,
      },
    });
  }
  if (outcome.unblocked) deps.settlementUnblocked();
  return {
    party: outcome.party,
    at: now.toISOString(),
    method: body.method,
    within_radius: outcome.withinRadius === 'unknown' ? null : outcome.withinRadius === 'yes',
    distance_meters: outcome.distance,
    position:
      body.latitude !== undefined && body.longitude !== undefined
        ? { latitude: body.latitude, longitude: body.longitude }
        : null,
  };
}
