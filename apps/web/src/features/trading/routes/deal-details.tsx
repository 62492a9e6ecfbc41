import { useParams } from 'react-router';
import { BackLink } from '@/components/back-link.js';
import { PageTitle } from '@/components/page-title.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { AuditPanel } from '@/features/deal-room/components/audit-panel.js';
import { CancelDealPanel } from '@/features/deal-room/components/cancel-deal-panel.js';
import { CisPanel } from '@/features/deal-room/components/cis-panel.js';
import { DealProgressPanel } from '@/features/deal-room/components/deal-progress-panel.js';
import { DisputePanel } from '@/features/deal-room/components/dispute-panel.js';
import { MeetingPanel } from '@/features/deal-room/components/meeting-panel.js';
import { MessagesPanel } from '@/features/deal-room/components/messages-panel.js';
import { TermsPanel } from '@/features/deal-room/components/terms-panel.js';
import { TravelRulePanel } from '@/features/deal-room/components/travel-rule-panel.js';
import {
  type LiveUpdatesState,
  useDealLiveUpdates,
} from '@/features/deal-room/hooks/use-deal-live-updates.js';
import { EscrowPanel } from '@/features/escrow/components/escrow-panel.js';
import { ApiError } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import { cn } from '@/lib/cn.js';
import { useDeal } from '../api/get-deal.js';
import { DealDetails } from '../components/deal-details.js';
import { QueryErrorState } from '../components/query-error-state.js';
import { useConsoleError } from '../components/use-console-error.js';

const liveLabels: Record<LiveUpdatesState, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  unavailable: 'Live updates unavailable: reload to see changes',
};

/** Whether the page follows the deal live, so a trader knows the other side's actions will appear. */
function LiveIndicator({ state }: { state: LiveUpdatesState }) {
  return (
    <p role="status" className="flex items-center gap-2 text-muted text-sm">
      <span aria-hidden className={cn('size-2 rounded-full', state === 'live' ? 'bg-primary' : 'bg-muted')} />
      {liveLabels[state]}
    </p>
  );
}

// Only reached through the router's guard, so a user is always present here.
export function DealDetailsRoute() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const deal = useDeal(id);
  const live = useDealLiveUpdates(id);
  useConsoleError('Error fetching trade:', deal.error);
  // The server answers 404 for deals of others too, never revealing that they exist.
  const missing = deal.error instanceof ApiError && deal.error.status === 404;

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Deal" />
      <BackLink to={paths.trading}>Back to Trading</BackLink>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="font-semibold text-3xl tracking-tight">Deal Details</h1>
        {deal.data && <LiveIndicator state={live} />}
      </div>
      {missing ? (
        <p className="text-muted">This deal does not exist, or you are not a party to it.</p>
      ) : deal.isError ? (
        <QueryErrorState title="This deal could not be loaded." onRetry={() => void deal.refetch()} />
      ) : !deal.data ? (
        <Spinner label="Loading the deal" />
      ) : (
        <>
          <DealProgressPanel deal={deal.data} viewerId={user?.id} />
          {/* Next to the progress: at the meeting, check-in is what the phone is open for. */}
          <MeetingPanel deal={deal.data} viewerId={user?.id} />
          <DealDetails deal={deal.data} viewerId={user?.id} />
          <CisPanel deal={deal.data} viewerId={user?.id} />
          <TermsPanel deal={deal.data} viewerId={user?.id} />
          <TravelRulePanel deal={deal.data} viewerId={user?.id} />
          <EscrowPanel deal={deal.data} viewerId={user?.id} />
          <DisputePanel deal={deal.data} viewerId={user?.id} />
          <MessagesPanel deal={deal.data} viewerId={user?.id} />
          <CancelDealPanel deal={deal.data} viewerId={user?.id} />
          <AuditPanel deal={deal.data} viewerId={user?.id} />
        </>
      )}
    </div>
  );
}
