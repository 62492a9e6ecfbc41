import type { Deal } from '@covenant/domain';
import { Inbox } from 'lucide-react';
import { Button } from '@/components/ui/button.js';
import { Spinner } from '@/components/ui/spinner.js';
import { QueryErrorState } from './query-error-state.js';
import { TradeCard } from './trade-card.js';

type MyTradesProps = {
  deals: Deal[] | undefined;
  failed: boolean;
  onRetry: () => void;
  onCreateTrade: () => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
};

export function MyTrades({
  deals,
  failed,
  onRetry,
  onCreateTrade,
  hasMore,
  loadingMore,
  onLoadMore,
}: MyTradesProps) {
  // A failed first page replaces the list; a failed later page keeps what was already shown.
  if (failed && !deals?.length)
    return <QueryErrorState title="Your trades could not be loaded." onRetry={onRetry} />;
  if (!deals) return <Spinner label="Loading your trades" />;
  if (deals.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 py-12 text-center">
        <Inbox className="size-10 text-muted" aria-hidden />
        <p className="font-medium text-lg">No trades yet</p>
        <p className="text-muted text-sm">
          Trades you create, or that a partner creates with you, appear here.
        </p>
        <Button onClick={onCreateTrade}>Create Trade</Button>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <ul className="space-y-3">
        {deals.map((deal) => (
          <li key={deal.id}>
            <TradeCard deal={deal} />
          </li>
        ))}
      </ul>
      {failed && <QueryErrorState title="More trades could not be loaded." onRetry={onRetry} />}
      {hasMore && !failed && (
        <Button variant="outline" className="w-full" disabled={loadingMore} onClick={onLoadMore}>
          {loadingMore ? 'Loading...' : 'Load More Trades'}
        </Button>
      )}
    </div>
  );
}
