import { schema } from '@covenant/db';
import {
  AppError,
  type DealStatus,
  type MeetingCode,
  type MeetingView,
  type MeetingViewBase,
} from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { findPartyDeal } from '../disputes/find-party-deal.js';
import { loadTravelItems, partyView } from '../travel/present-travel-items.js';
import {
  formatMeetingCode,
  meetingCode,
  meetingCodeStep,
  meetingCodeStepMs,
  meetingQrText,
} from './meeting-codes.js';
import type { MeetingDeps } from './meeting-deps.js';
import { loadMeetingRecords, presentMeeting } from './meeting-state.js';

/** A party's view of the deal's meeting with its travel; anybody else gets NOT_FOUND. */
export async function getMeeting(deps: MeetingDeps, userId: string, dealId: string): Promise<MeetingView> {
  const deal = await findPartyDeal(deps.db, userId, dealId);
  const [records, travel] = await Promise.all([
    loadMeetingRecords(deps.db, dealId),
    loadTravelItems(deps.db, eq(schema.travelItems.dealId, dealId)),
  ]);
  return { ...presentMeeting(deps.masterKey, deal, records, deps.now()), travel: travel.map(partyView) };
}

/**
 * The caller's own check-in code for now, for the other party to scan or type. Given only while
 * check-in is open, so a code seen early (a screenshot sent ahead) is worth nothing.
 */
export async function getMeetingCode(
  deps: MeetingDeps,
  userId: string,
  dealId: string,
): Promise<MeetingCode> {
  const deal = await findPartyDeal(deps.db, userId, dealId);
  const now = deps.now();
  const view = presentMeeting(deps.masterKey, deal, await loadMeetingRecords(deps.db, dealId), now);
  assertCheckInOpen(view, now, deal.status);
  const step = meetingCodeStep(now);
  const code = meetingCode(deps.codeKey, dealId, deal.role, step);
  return {
    token: formatMeetingCode(code),
    qr_text: meetingQrText(dealId, code),
    expires_at: new Date(Number(step + 1n) * meetingCodeStepMs).toISOString(),
  };
}

/** Refuses a meeting action unless check-in is open, saying why. */
export function assertCheckInOpen(view: MeetingViewBase, now: Date, dealStatus: DealStatus): void {
  if (view.status === 'open') return;
  if (dealStatus === 'disputed') {
    throw new AppError('MEETING_NOT_OPEN', 'Check-in is closed while the deal is disputed.');
  }
  if (dealStatus === 'completed' || dealStatus === 'cancelled') {
    throw new AppError('MEETING_NOT_OPEN', `The deal is ${dealStatus}.`);
  }
  if (view.status === 'not_required') {
    throw new AppError('MEETING_NOT_REQUIRED', 'This deal’s terms do not require a meeting.');
  }
  if (view.status === 'checked_in' || view.status === 'waived') {
    throw new AppError('MEETING_NOT_OPEN', 'Both parties have already checked in or waived the meeting.');
  }
  if (!view.window) throw new AppError('MEETING_NOT_OPEN', 'The meeting’s details are not agreed yet.');
  const { opens, closes } = view.window;
  if (now.toISOString() >= closes) {
    throw new AppError(
      'MEETING_NOT_OPEN',
      `Check-in for this meeting closed on ${closes.slice(0, 10)} (UTC).`,
      {
        window: view.window,
      },
    );
  }
  throw new AppError(
    'MEETING_NOT_OPEN',
    now.toISOString() < opens
      ? `Check-in opens on ${opens.slice(0, 10)} (UTC), once the escrow is funded.`
      : 'Check-in opens once the escrow is funded.',
    { window: view.window },
  );
}
