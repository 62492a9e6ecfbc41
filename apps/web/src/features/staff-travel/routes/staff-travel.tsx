import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useTravelQueue } from '../api/get-travel-queue.js';
import { TravelQueueItem } from '../components/travel-queue-item.js';

/**
 * `/staff/travel`: the concierge's queue of travel for deal meetings. Items waiting for a quote or
 * for the parties' approvals come first, oldest first; prices are in the deal's stable token.
 */
export function StaffTravelRoute() {
  const queue = useTravelQueue();
  const items = queue.data?.data ?? [];

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Concierge" />
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">Concierge</h1>
        <p className="mt-2 text-muted">
          Travel the parties asked for their meeting: quote each item in the deal’s stablecoin, payable to the
          provider’s address on the stable chain. Both parties approve a quote before it is paid from escrow;
          mark it booked once it is paid.
        </p>
      </div>
      {queue.isPending ? (
        <Spinner label="Loading travel requests" />
      ) : queue.isError ? (
        <LoadError onRetry={() => void queue.refetch()}>
          The travel requests could not be loaded: {queue.error.message}
        </LoadError>
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed p-8 text-center text-muted">
          No travel requests.
        </p>
      ) : (
        <ul className="space-y-4" aria-label="Travel requests">
          {items.map((item) => (
            <TravelQueueItem key={item.id} item={item} />
          ))}
        </ul>
      )}
    </div>
  );
}
