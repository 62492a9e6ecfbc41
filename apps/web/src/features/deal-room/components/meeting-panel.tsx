import type { DealParty, DealWithHistory, MeetingCheckIn, MeetingViewBase } from '@covenant/domain';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { describeMeeting } from '@/features/trading/components/describe-meeting.js';
import { partnerName } from '@/features/trading/components/partner-name.js';
import { QueryErrorState } from '@/features/trading/components/query-error-state.js';
import { useDealMeeting } from '../api/meeting-get.js';
import { useWaiveMeeting } from '../api/meeting-waive.js';
import { MeetingCheckInForm } from './meeting-check-in-form.js';
import { MeetingCodeCard } from './meeting-code-card.js';
import { MeetingTravel } from './meeting-travel.js';

/** Deal statuses in which the meeting can still be waived (the server's rule): before settlement. */
const waivable = new Set(['draft', 'cis_submitted', 'terms_agreed', 'escrow_funded']);
const formatTime = (iso: string) => new Date(iso).toLocaleString();
const formatDay = (iso: string) => iso.slice(0, 10);

function statusLine(view: MeetingViewBase): string {
  switch (view.status) {
    case 'not_required':
      return 'No meeting is required.';
    case 'awaiting_details':
      return 'Awaiting details: the terms need the meeting’s place, coordinates, first day and duration.';
    case 'scheduled':
      if (!view.window) return 'Scheduled: check-in opens once the escrow is funded.';
      // Past its opening day, only the funding is missing.
      return new Date(view.window.opens).getTime() > Date.now()
        ? `Scheduled: check-in opens on ${formatDay(view.window.opens)} (UTC) once the escrow is funded, and closes on ${formatDay(view.window.closes)}.`
        : `Scheduled: check-in opens once the escrow is funded, and closes on ${formatDay(view.window.closes)} (UTC).`;
    case 'open':
      return 'Check-in is open.';
    case 'checked_in':
      return 'Both parties have checked in.';
    case 'waived':
      return 'Both parties waived the meeting.';
  }
}

function describeCheckIn(checkIn: MeetingCheckIn): string {
  const how = checkIn.method === 'qr' ? 'by QR scan' : 'by code';
  const where =
    checkIn.within_radius === null
      ? 'position not shared'
      : `${checkIn.within_radius ? 'at the meeting place' : 'outside the meeting place’s radius'}${
          checkIn.distance_meters === null ? '' : ` (${checkIn.distance_meters} m away)`
        }`;
  return `checked in ${how} on ${formatTime(checkIn.at)}, ${where}`;
}

/**
 * The deal room's "Meeting" card, for deals whose terms require one: the meeting (place,
 * coordinates, dates, who pays travel), its status, who has checked in or waived it and, while
 * check-in is open, the viewer's own rotating code and the check-in with the other party's. Laid out
 * for a phone: that is where it is used.
 */
export function MeetingPanel({ deal, viewerId }: { deal: DealWithHistory; viewerId: string | undefined }) {
  const id = useId();
  const meeting = useDealMeeting(deal.id, deal.meeting_required);
  const isParty = viewerId === deal.buyer_id || viewerId === deal.seller_id;
  if (!deal.meeting_required || !isParty) return null;
  const viewer: DealParty = viewerId === deal.seller_id ? 'seller' : 'buyer';

  return (
    <Card role="region" aria-labelledby={`${id}-title`} className="space-y-4">
      <h2 id={`${id}-title`} className="font-semibold text-xl">
        Meeting
      </h2>
      {meeting.isError ? (
        <QueryErrorState title="The meeting could not be loaded." onRetry={() => void meeting.refetch()} />
      ) : !meeting.data ? (
        <Spinner label="Loading the meeting" />
      ) : (
        <MeetingDetails deal={deal} viewer={viewer} view={meeting.data} />
      )}
    </Card>
  );
}

function MeetingDetails({
  deal,
  viewer,
  view,
}: {
  deal: DealWithHistory;
  viewer: DealParty;
  view: MeetingViewBase;
}) {
  const other: DealParty = viewer === 'buyer' ? 'seller' : 'buyer';
  const names = { buyer: partnerName(deal.buyer), seller: partnerName(deal.seller) };
  const [showCode, setShowCode] = useState(false);
  const details = view.meeting ? describeMeeting(view.meeting) : null;
  const checkIns = new Map(view.check_ins.map((checkIn) => [checkIn.party, checkIn]));
  const open = view.status === 'open';
  const mine = checkIns.get(viewer);

  return (
    <div className="space-y-5">
      {details ? (
        <dl className="grid gap-3 sm:grid-cols-2">
          <Detail label="Place">{details.place}</Detail>
          <Detail label="Coordinates">{details.coordinates}</Detail>
          <Detail label="Dates">{details.dates}</Detail>
          <Detail label="Travel paid by">{details.travelPaidBy}</Detail>
        </dl>
      ) : (
        <p className="text-muted text-sm">
          {deal.travel_location ? `${deal.travel_location}: ` : ''}the meeting’s details are not proposed yet.
          Counter-propose the terms with its coordinates, first day and duration.
        </p>
      )}
      <p role="status" data-testid="meeting-status" className="font-medium text-sm">
        {statusLine(view)}
      </p>
      {view.settlement_waits && (
        <p className="text-sm">
          Settlement waits until both of you check in at the meeting or both waive it.
        </p>
      )}
      <ul className="space-y-1 text-sm" aria-label="Check-ins">
        {(['buyer', 'seller'] as const).map((party) => {
          const checkIn = checkIns.get(party);
          const who = party === viewer ? `${names[party]} (you)` : names[party];
          return (
            <li key={party}>
              <span className="font-medium">{who}</span>{' '}
              {checkIn ? describeCheckIn(checkIn) : 'has not checked in'}
              {view.waived_by.includes(party) ? '; waived the meeting' : ''}
            </li>
          );
        })}
      </ul>
      {open && (
        <section aria-labelledby="meeting-code-heading" className="space-y-3">
          <h3 id="meeting-code-heading" className="font-medium">
            Your code
          </h3>
          <p className="text-muted text-sm">{names[other]} scans it or types it to check in.</p>
          {showCode ? (
            <>
              <MeetingCodeCard dealId={deal.id} />
              <Button variant="outline" onClick={() => setShowCode(false)}>
                Hide my code
              </Button>
            </>
          ) : (
            <Button className="w-full sm:w-auto" onClick={() => setShowCode(true)}>
              Show my code
            </Button>
          )}
        </section>
      )}
      {open && !mine && (
        <section aria-labelledby="meeting-check-in-heading" className="space-y-3">
          <h3 id="meeting-check-in-heading" className="font-medium">
            Check in
          </h3>
          <MeetingCheckInForm dealId={deal.id} otherName={names[other]} />
        </section>
      )}
      <MeetingTravel
        dealId={deal.id}
        names={names}
        viewer={viewer}
        travelPaidBy={deal.meeting?.travel_paid_by ?? 'seller'}
      />
      {waivable.has(deal.status) &&
        !view.waived_by.includes(viewer) &&
        view.status !== 'checked_in' &&
        view.status !== 'waived' && <WaiveMeeting dealId={deal.id} otherName={names[other]} />}
    </div>
  );
}

function Detail({ label, children }: { label: string; children: string }) {
  return (
    <div className="space-y-1">
      <dt className="text-muted text-xs uppercase tracking-wide">{label}</dt>
      <dd className="break-words text-sm">{children}</dd>
    </div>
  );
}

/** "Waive the meeting", behind a confirm step: once both parties have, settlement stops waiting for it. */
function WaiveMeeting({ dealId, otherName }: { dealId: string; otherName: string }) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const waive = useWaiveMeeting(dealId);
  const submit = () =>
    waive.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast.success('Meeting waived', { description: `${otherName} has been told.` });
      },
      onError: () => setConfirming(false),
    });
  return (
    <section className="space-y-2 border-border border-t pt-4">
      {confirming ? (
        <div role="alertdialog" aria-labelledby={`${id}-confirm`} className="space-y-3">
          <p id={`${id}-confirm`} className="font-medium">
            Waive the in-person meeting?
          </p>
          <p className="text-muted text-sm">
            Once {otherName} waives it too, settlement no longer waits for check-in. This cannot be undone.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button disabled={waive.isPending} onClick={submit}>
              Yes, waive the meeting
            </Button>
            <Button variant="outline" disabled={waive.isPending} onClick={() => setConfirming(false)}>
              Keep the meeting
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="outline" onClick={() => setConfirming(true)}>
          Waive the meeting
        </Button>
      )}
      {waive.isError && (
        <p role="alert" className="text-destructive text-sm">
          {waive.error.message}
        </p>
      )}
    </section>
  );
}
