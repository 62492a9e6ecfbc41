import { type Db, schema } from '@covenant/db';
import {
  type DealParty,
  type DealStatus,
  type Meeting,
  type MeetingCheckIn,
  type MeetingStatus,
  type MeetingViewBase,
  meetingSchema,
  meetingWindow,
} from '@covenant/domain';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../deals/append-deal-event.js';
import { meetingOf } from '../deals/deal-view.js';
import { openSealedText } from '../files/seal-text.js';

type CheckInRow = typeof schema.meetingCheckIns.$inferSelect;
type DealRow = typeof schema.deals.$inferSelect;

/** What the meeting of a deal has recorded so far. */
export interface MeetingRecords {
  checkIns: CheckInRow[];
  waivedBy: DealParty[];
}

export async function loadMeetingRecords(db: Db | Transaction, dealId: string): Promise<MeetingRecords> {
  const checkIns = await db
    .select()
    .from(schema.meetingCheckIns)
    .where(eq(schema.meetingCheckIns.dealId, dealId));
  const waivers = await db
    .select({ party: schema.meetingWaivers.party })
    .from(schema.meetingWaivers)
    .where(eq(schema.meetingWaivers.dealId, dealId));
  return {
    checkIns: checkIns.sort((a, b) => a.checkedInAt.getTime() - b.checkedInAt.getTime()),
    waivedBy: waivers.map((row) => row.party).sort(),
  };
}

/** Both parties checked in, or both waived: the meeting no longer holds settlement back. */
export function meetingSettled(records: MeetingRecords): boolean {
  return records.checkIns.length === 2 || records.waivedBy.length === 2;
}

/**
 * Where a deal's meeting stands. Check-in is open only while the escrow is funded and inside the
 * meeting's window (`meetingWindow`); before that an agreed meeting is `scheduled`.
 */
export function meetingStatusOf(
  deal: Pick<DealRow, 'meetingRequired' | 'status'>,
  meeting: Meeting | undefined,
  records: MeetingRecords,
  now: Date,
): MeetingStatus {
  if (!deal.meetingRequired) return 'not_required';
  if (records.waivedBy.length === 2) return 'waived';
  if (records.checkIns.length === 2) return 'checked_in';
  if (!meeting) return 'awaiting_details';
  const { opens, closes } = meetingWindow(meeting);
  const open = deal.status === 'escrow_funded' && now >= opens && now < closes;
  return open ? 'open' : 'scheduled';
}

/** Whether a funded deal's settlement waits for its meeting. */
export function settlementWaits(
  deal: Pick<DealRow, 'meetingRequired'> & { status: DealStatus },
  records: MeetingRecords,
): boolean {
  return deal.meetingRequired && deal.status === 'escrow_funded' && !meetingSettled(records);
}

/** The context sealing a check-in's position: the row's key, so a sealed value cannot be moved. */
export function positionContext(dealId: string, party: DealParty): string {
  return `meeting_check_in:${dealId}:${party}`;
}

function presentCheckIn(masterKey: Buffer, row: CheckInRow): MeetingCheckIn {
  let position: MeetingCheckIn['position'] = null;
  if (row.positionSealed) {
    const opened = JSON.parse(
      openSealedText(masterKey, row.positionSealed, positionContext(row.dealId, row.party)),
    );
    position = { latitude: opened.latitude, longitude: opened.longitude };
  }
  return {
    party: row.party,
    at: row.checkedInAt.toISOString(),
    method: row.method,
    within_radius: row.withinRadius === 'unknown' ? null : row.withinRadius === 'yes',
    distance_meters: row.distanceMeters,
    position,
  };
}

/** The meeting as the deal's parties (and mediators) see it. */
export function presentMeeting(
  masterKey: Buffer,
  deal: DealRow,
  records: MeetingRecords,
  now: Date,
): MeetingViewBase {
  const meeting = meetingOf(deal);
  const window = meeting ? meetingWindow(meeting) : null;
  return {
    required: deal.meetingRequired,
    meeting: meeting ?? null,
    status: meetingStatusOf(deal, meeting, records, now),
    window: window ? { opens: window.opens.toISOString(), closes: window.closes.toISOString() } : null,
    check_ins: records.checkIns.map((row) => presentCheckIn(masterKey, row)),
    waived_by: records.waivedBy,
    settlement_waits: settlementWaits(deal, records),
    proposed_change:
      deal.meetingProposal && deal.meetingProposedBy
        ? {
            meeting: meetingSchema.parse(deal.meetingProposal),
            proposed_by: deal.meetingProposedBy === deal.buyerId ? 'buyer' : 'seller',
          }
        : null,
  };
}
