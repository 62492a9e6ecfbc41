import { generatePath, Link, useSearchParams } from 'react-router';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Button } from '@/components/ui/button.js';
import { Label } from '@/components/ui/label.js';
import { Select } from '@/components/ui/select.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { ApiError } from '@/lib/api-client.js';
import { type InboxFilters, useSupportMessages } from '../api/get-support-messages.js';
import {
  type SupportKind,
  type SupportStatus,
  supportStatuses,
  supportStatusLabels,
} from '../api/support-message.js';
import { AdminOnly, NotAllowed } from '../components/admin-only.js';
import { formatUtcTime } from '../components/format-utc-time.js';
import { PriorityBadge, StatusBadge } from '../components/support-badges.js';

export function InboxRoute() {
  return (
    <AdminOnly>
      <Inbox />
    </AdminOnly>
  );
}

// Filters live in the URL, so a filtered inbox can be bookmarked and survives the back button.
function Inbox() {
  const [search, setSearch] = useSearchParams();
  const filters: InboxFilters = {
    status: supportStatuses.includes(search.get('status') as SupportStatus)
      ? (search.get('status') as SupportStatus)
      : '',
    kind:
      search.get('kind') === 'contact' || search.get('kind') === 'ticket'
        ? (search.get('kind') as SupportKind)
        : '',
  };
  const inbox = useSupportMessages(filters);
  const setFilter = (name: keyof InboxFilters, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearch(next, { replace: true });
  };
  const messages = inbox.data?.pages.flatMap((page) => page.data) ?? [];

  if (inbox.error instanceof ApiError && inbox.error.status === 403) return <NotAllowed />;

  return (
    <div className="mx-auto w-full max-w-5xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Support Inbox" />
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">Support Inbox</h1>
        <p className="mt-2 text-muted">Contact messages and Help Center tickets, newest first.</p>
      </div>
      <div className="flex flex-wrap gap-4">
        <div className="space-y-1">
          <Label htmlFor="inbox-status">Status</Label>
          <Select
            id="inbox-status"
            value={filters.status}
            onChange={(event) => setFilter('status', event.target.value)}
          >
            <option value="">All statuses</option>
            {supportStatuses.map((status) => (
              <option key={status} value={status}>
                {supportStatusLabels[status]}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1">
          <Label htmlFor="inbox-kind">Type</Label>
          <Select
            id="inbox-kind"
            value={filters.kind}
            onChange={(event) => setFilter('kind', event.target.value)}
          >
            <option value="">Messages and tickets</option>
            <option value="contact">Contact messages</option>
            <option value="ticket">Support tickets</option>
          </Select>
        </div>
      </div>
      {inbox.isPending ? (
        <Spinner label="Loading the inbox" />
      ) : inbox.isError ? (
        <LoadError onRetry={() => void inbox.refetch()}>
          The inbox could not be loaded: {inbox.error.message}
        </LoadError>
      ) : messages.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed p-8 text-center text-muted">
          No messages match these filters.
        </p>
      ) : (
        <ul className="divide-y divide-border rounded-lg border border-border">
          {messages.map((message) => (
            <li key={message.id}>
              <Link
                to={generatePath(paths.staffInboxMessage, { id: message.id })}
                className="block space-y-1 p-4 hover:bg-surface-raised focus-visible:outline-2 focus-visible:outline-ring"
              >
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-mono text-muted text-xs">{message.reference}</span>
                  <StatusBadge status={message.status} />
                  <PriorityBadge priority={message.priority} />
                  <span className="ml-auto text-muted text-xs">{formatUtcTime(message.created_at)}</span>
                </div>
                <p className="font-medium">{message.title}</p>
                <p className="text-muted text-sm">
                  {message.name ? `${message.name} · ` : ''}
                  {message.email}
                </p>
                <p className="line-clamp-2 text-muted text-sm">{message.preview}</p>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {inbox.hasNextPage ? (
        <Button
          variant="outline"
          disabled={inbox.isFetchingNextPage}
          onClick={() => void inbox.fetchNextPage()}
        >
          {inbox.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </Button>
      ) : null}
    </div>
  );
}
