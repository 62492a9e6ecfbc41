import type { DealTermsVersionTerms } from '@covenant/domain';
import type { ReactNode } from 'react';
import { describeMeeting } from '@/features/trading/components/describe-meeting.js';
import { formatDealAmount } from '@/features/trading/components/format-deal-amount.js';

function Term({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <dt className="text-muted text-xs uppercase tracking-wide">{label}</dt>
      <dd className="break-all text-sm">{children}</dd>
    </div>
  );
}

export const formatHours = (hours: number) => (hours === 1 ? '1 hour' : `${hours} hours`);

/** Every term of one version: both legs with their chains, the funding deadline and the meeting. */
export function TermsDetails({ terms }: { terms: DealTermsVersionTerms }) {
  const meeting = terms.meeting_required && terms.meeting ? describeMeeting(terms.meeting) : null;
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      <Term label="Asset leg">
        {formatDealAmount(terms.asset_amount, terms.asset_symbol)} on {terms.asset_chain}
      </Term>
      <Term label="Stablecoin leg">
        {formatDealAmount(terms.stable_amount, terms.stable_symbol)} on {terms.stable_chain}
      </Term>
      <Term label="Funding deadline">{formatHours(terms.funding_deadline_hours)} after agreement</Term>
      <Term label="In-person meeting">
        {terms.meeting_required ? `Yes — ${terms.travel_location || 'location to be agreed'}` : 'No'}
      </Term>
      {meeting && (
        <>
          <Term label="Meeting coordinates">{meeting.coordinates}</Term>
          <Term label="Meeting dates">{meeting.dates}</Term>
          <Term label="Travel paid by">{meeting.travelPaidBy}</Term>
        </>
      )}
    </dl>
  );
}
