import type { DisputeStatus } from '@covenant/domain';
import { Link, useSearchParams } from 'react-router';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Label } from '@/components/ui/label.js';
import { Select } from '@/components/ui/select.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { ApiError } from '@/lib/api-client.js';
import { useStaffDisputes } from '../api/get-staff-disputes.js';
import { StaffForbidden } from '../components/staff-request-error.js';
import { formatTokenAmount } from '../components/token-amount.js';

const statuses: DisputeStatus[] = ['open', 'decided'];
const dateFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** `/staff/disputes`: the mediators' queue, open disputes first and oldest first, filtered by status. */
export function StaffDisputesRoute() {
  const [search, setSearch] = useSearchParams();
  const param = search.get('status');
  const status: DisputeStatus | '' =
    param === 'all' ? '' : statuses.includes(param as DisputeStatus) ? (param as DisputeStatus) : 'open';
  const queue = useStaffDisputes(status);
  const disputes = queue.data?.data ?? [];

  if (queue.error instanceof ApiError && queue.error.status === 403)
    return <StaffForbidden error={queue.error} />;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Disputes" />
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">Disputes</h1>
        <p className="mt-2 text-muted">Disputed deals waiting for a mediator; open ones oldest first.</p>
      </div>
      <div className="max-w-xs space-y-1">
        <Label htmlFor="dispute-status">Status</Label>
        <Select
          id="dispute-status"
          value={status || 'all'}
          onChange={(event) =>
            setSearch(new URLSearchParams({ status: event.target.value }), { replace: true })
          }
        >
          <option value="open">Open</option>
          <option value="decided">Decided</option>
          <option value="all">All</option>
        </Select>
      </div>
      {queue.isPending ? (
        <Spinner label="Loading the queue" />
      ) : queue.isError ? (
        <LoadError onRetry={() => void queue.refetch()}>
          The queue could not be loaded: {queue.error.message}
        </LoadError>
      ) : disputes.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed p-8 text-center text-muted">
          No disputes here.
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Dispute queue</caption>
            <thead className="bg-surface-raised text-muted">
              <tr>
                <th scope="col" className="p-3 font-normal">
                  Opened (UTC)
                </th>
                <th scope="col" className="p-3 font-normal">
                  Deal
                </th>
                <th scope="col" className="p-3 font-normal">
                  Parties
                </th>
                <th scope="col" className="p-3 font-normal">
                  Status
                </th>
                <th scope="col" className="p-3 font-normal">
                  Mediator
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {disputes.map((dispute) => (
                <tr key={dispute.id}>
                  <td className="p-3">{dateFormat.format(new Date(dispute.created_at))}</td>
                  <td className="p-3">
                    <Link
                      to={paths.staffDispute.replace(':id', dispute.id)}
                      className="font-medium text-primary hover:underline"
                    >
                      {formatTokenAmount(dispute.deal.asset_amount, dispute.deal.asset_symbol)} for{' '}
                      {formatTokenAmount(dispute.deal.stable_amount, dispute.deal.stable_symbol)}
                    </Link>
                    <span className="block text-muted text-xs">
                      {dispute.deal.asset_chain} → {dispute.deal.stable_chain}
                    </span>
                    <Link
                      to={paths.staffDeal.replace(':id', dispute.deal.id)}
                      className="text-primary text-xs hover:underline"
                      aria-label={`Deal view of the deal disputed ${dateFormat.format(new Date(dispute.created_at))}`}
                    >
                      Deal view
                    </Link>
                  </td>
                  <td className="p-3">
                    {dispute.deal.buyer.username ?? dispute.deal.buyer.id} (buyer)
                    <span className="block">
                      {dispute.deal.seller.username ?? dispute.deal.seller.id} (seller)
                    </span>
                  </td>
                  <td className="p-3 capitalize">{dispute.status}</td>
                  <td className="p-3">
                    {dispute.mediator ? (dispute.mediator.username ?? dispute.mediator.id) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
