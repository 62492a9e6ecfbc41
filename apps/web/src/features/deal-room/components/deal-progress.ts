import type { Deal, DealCis, MeetingViewBase } from '@covenant/domain';
import { partnerName } from '@/features/trading/components/partner-name.js';

export const dealSteps = ['Exchange CIS', 'Agree terms', 'Fund escrow', 'Settle'] as const;
/** A deal whose terms require a meeting meets between funding and settling (step 5 of the process). */
export const meetingDealSteps = ['Exchange CIS', 'Agree terms', 'Fund escrow', 'Meet', 'Settle'] as const;

export function dealStepsOf(deal: Pick<Deal, 'meeting_required'>): readonly string[] {
  return deal.meeting_required ? meetingDealSteps : dealSteps;
}

export interface DealProgress {
  /** Index into dealSteps of the step the deal is on; null once the deal is closed or in dispute. */
  step: number | null;
  headline: string;
  /** What the viewer must do now, in order; empty when it is the other side's turn. */
  yourActions: string[];
  /** What the deal waits for from the counterparty (or the platform), if anything. */
  waitingFor: string | null;
}

/**
 * Where a deal stands and what each side must do next, seen by one of its parties. Computed from
 * the deal (status, terms, addresses), its CIS exchange and, when its terms require one, its
 * meeting, so it changes as soon as either refreshes after the other side acts.
 */
export function dealProgress(
  deal: Deal,
  viewerId: string | undefined,
  cis: DealCis | undefined,
  meeting?: MeetingViewBase,
): DealProgress {
  const viewer = viewerId === deal.seller_id ? 'seller' : 'buyer';
  const other = viewer === 'buyer' ? 'seller' : 'buyer';
  const them = partnerName(deal[other]);
  switch (deal.status) {
    case 'draft': {
      const yourActions: string[] = [];
      const mine = cis?.[viewer];
      const theirs = cis?.[other];
      if (!mine) yourActions.push('Attach your Customer Information Sheet (CIS).');
      else if (mine.status === 'rejected') yourActions.push('Your CIS was rejected: attach a corrected one.');
      if (theirs?.status === 'pending') yourActions.push(`Review ${them}'s CIS: approve it or reject it.`);
      // Until the viewer attaches its own, the counterparty's sheet is not shown (null whether attached
      // or not), so nothing is said of it.
      const waitingFor = !mine
        ? null
        : !theirs
          ? `${them} to attach their CIS.`
          : mine.status === 'pending'
            ? `${them} to review your CIS.`
            : theirs.status === 'rejected'
              ? `${them} to attach a corrected CIS.`
              : null;
      return {
        step: 0,
        headline: 'Both parties exchange and approve a CIS before terms can be agreed.',
        yourActions,
        waitingFor,
      };
    }
    case 'cis_submitted': {
      const yourActions: string[] = [];
      if (!deal.addresses[viewer]) yourActions.push('Set your payout and refund addresses.');
      const theirProposal = deal.terms_proposed_by !== viewerId;
      if (theirProposal) {
        yourActions.push(`Accept terms version ${deal.terms_version}, or counter-propose.`);
      }
      const waiting: string[] = [];
      if (!deal.addresses[other]) waiting.push('set their addresses');
      if (!theirProposal) waiting.push(`accept terms version ${deal.terms_version} or counter-propose`);
      return {
        step: 1,
        headline: 'CIS approved by both parties. Agree the terms and set your addresses.',
        yourActions,
        waitingFor: waiting.length > 0 ? `${them} to ${waiting.join(' and ')}.` : null,
      };
    }
    case 'terms_agreed':
      return {
        step: 2,
        headline: `Terms agreed (version ${deal.accepted_terms_version ?? deal.terms_version}).`,
        yourActions: [
          `Fund your leg of the escrow within ${deal.funding_deadline_hours} hours of the agreement.`,
        ],
        waitingFor: `${them} to fund their leg of the escrow.`,
      };
    case 'escrow_funded':
      if (deal.meeting_required) return fundedWithMeeting(viewer, them, meeting);
      return {
        step: 3,
        headline: 'Both legs of the escrow are funded.',
        yourActions: ['Confirm the settlement.'],
        waitingFor: 'The settlement to be co-signed and broadcast.',
      };
    case 'disputed':
      return {
        step: null,
        headline: 'This deal is in dispute. A mediator is reviewing it.',
        yourActions: ['Add any evidence and answer the mediator in the messages below.'],
        waitingFor: 'The mediator’s decision.',
      };
    case 'completed':
      return { step: null, headline: 'This deal is completed.', yourActions: [], waitingFor: null };
    case 'cancelled':
      return {
        step: null,
        headline: 'This deal is cancelled and can no longer change.',
        yourActions: [],
        waitingFor: null,
      };
  }
}

/**
 * A funded deal whose terms require a meeting: on the "Meet" step until both parties checked in or
 * both waived it (the server's settlement_waits), then on "Settle".
 */
function fundedWithMeeting(
  viewer: 'buyer' | 'seller',
  them: string,
  meeting: MeetingViewBase | undefined,
): DealProgress {
  if (meeting && !meeting.settlement_waits) {
    return {
      step: 4,
      headline:
        meeting.status === 'waived'
          ? 'Both legs of the escrow are funded and both parties waived the meeting.'
          : 'Both legs of the escrow are funded and both parties checked in at the meeting.',
      yourActions: ['Confirm the settlement.'],
      waitingFor: 'The settlement to be co-signed and broadcast.',
    };
  }
  const other = viewer === 'buyer' ? 'seller' : 'buyer';
  const checkedIn = new Set(meeting?.check_ins.map((checkIn) => checkIn.party));
  const waived = new Set(meeting?.waived_by);
  const yourActions: string[] = [];
  if (!checkedIn.has(viewer) && !waived.has(viewer)) {
    yourActions.push(
      meeting?.status === 'open'
        ? `Check in at the meeting with ${them}'s code, or waive the meeting.`
        : 'Meet in person in the meeting window and check in there, or waive the meeting.',
    );
  }
  const waiting: string[] = [];
  if (!checkedIn.has(other) && !waived.has(other)) waiting.push(`${them} to check in or waive the meeting.`);
  return {
    step: 3,
    headline:
      'Both legs of the escrow are funded. Settlement waits until both parties check in at the meeting or both waive it.',
    yourActions,
    waitingFor: waiting[0] ?? null,
  };
}
