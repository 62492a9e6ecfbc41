import type { DealWithHistory } from '@covenant/domain';
import { Check } from 'lucide-react';
import { Card } from '@/components/ui/card.js';
import { partnerName } from '@/features/trading/components/partner-name.js';
import { cn } from '@/lib/cn.js';
import { useDealCis } from '../api/cis-get-deal-cis.js';
import { useDealMeeting } from '../api/meeting-get.js';
import { dealProgress, dealStepsOf } from './deal-progress.js';

/**
 * The deal room's header: the steps (four, or five with the meeting) with the current one marked,
 * who has checked in at the meeting, and who must do what next.
 */
export function DealProgressPanel({
  deal,
  viewerId,
}: {
  deal: DealWithHistory;
  viewerId: string | undefined;
}) {
  const cis = useDealCis(deal.id);
  const meeting = useDealMeeting(deal.id, deal.meeting_required);
  const progress = dealProgress(deal, viewerId, cis.data, meeting.data);
  const steps = dealStepsOf(deal);
  const checkedIn = new Set(meeting.data?.check_ins.map((checkIn) => checkIn.party));
  return (
    <Card aria-labelledby="deal-progress-title" className="space-y-4">
      <h2 id="deal-progress-title" className="font-semibold text-lg">
        Next step
      </h2>
      <ol
        className={cn('grid grid-cols-2 gap-2', steps.length === 5 ? 'sm:grid-cols-5' : 'sm:grid-cols-4')}
        aria-label="Deal steps"
      >
        {steps.map((label, index) => {
          const done = progress.step !== null ? index < progress.step : deal.status === 'completed';
          const current = index === progress.step;
          return (
            <li
              key={label}
              aria-current={current ? 'step' : undefined}
              className={cn(
                'flex items-center gap-2 rounded-lg border px-3 py-2 text-sm',
                current ? 'border-primary font-medium' : 'border-border text-muted',
              )}
            >
              <span
                className={cn(
                  'flex size-5 shrink-0 items-center justify-center rounded-full border text-xs',
                  done && 'border-primary bg-primary text-primary-foreground',
                )}
              >
                {done ? <Check className="size-3" aria-label="done" /> : index + 1}
              </span>
              {label}
            </li>
          );
        })}
      </ol>
      <p className="text-sm">{progress.headline}</p>
      {meeting.data && deal.status === 'escrow_funded' && (
        <p className="text-sm" data-testid="meeting-check-ins">
          <span className="font-medium">Checked in: </span>
          {(['buyer', 'seller'] as const)
            .map((party) => `${partnerName(deal[party])} ${checkedIn.has(party) ? '✓' : '—'}`)
            .join(' · ')}
        </p>
      )}
      {progress.yourActions.length > 0 && (
        <div>
          <h3 className="font-medium text-sm">Your next step</h3>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
            {progress.yourActions.map((action) => (
              <li key={action}>{action}</li>
            ))}
          </ul>
        </div>
      )}
      {progress.waitingFor && (
        <p className="text-muted text-sm">
          <span className="font-medium">Waiting for: </span>
          {progress.waitingFor}
        </p>
      )}
    </Card>
  );
}
