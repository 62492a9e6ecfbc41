import { tierLabels } from '@covenant/domain';
import { useSearchParams } from 'react-router';
import { type KycStatus, KycStatusBadge } from '@/components/kyc-status-badge.js';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Label } from '@/components/ui/label.js';
import { Select } from '@/components/ui/select.js';
import { Spinner } from '@/components/ui/spinner.js';
import { ApiError } from '@/lib/api-client.js';
import { cn } from '@/lib/cn.js';
import { useStaffKycSubmissions } from '../api/get-staff-kyc-submissions.js';
import { ComplianceOnly, NotAllowed } from '../components/compliance-only.js';
import { SubmissionDetails } from '../components/submission-details.js';

const statuses: KycStatus[] = ['pending', 'approved', 'rejected'];
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

/** `/staff/kyc`: the compliance console — the queue, a request's details and documents, the decision. */
export function StaffKycRoute() {
  return (
    <ComplianceOnly>
      <KycConsole />
    </ComplianceOnly>
  );
}

// The filter and the open request live in the URL, so a review can be linked and survives reloads.
function KycConsole() {
  const [search, setSearch] = useSearchParams();
  const statusParam = search.get('status');
  const status: KycStatus | '' =
    statusParam === 'all'
      ? ''
      : statuses.includes(statusParam as KycStatus)
        ? (statusParam as KycStatus)
        : 'pending';
  const selectedId = search.get('id');
  const queue = useStaffKycSubmissions(status);
  const submissions = queue.data?.data ?? [];
  const selected = submissions.find((submission) => submission.id === selectedId);

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) next.delete(name);
      else next.set(name, value);
    }
    setSearch(next, { replace: true });
  };

  if (queue.error instanceof ApiError && queue.error.status === 403) return <NotAllowed />;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="KYC Review" />
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">KYC Review</h1>
        <p className="mt-2 text-muted">Verification requests of traders; pending ones oldest first.</p>
      </div>
      <div className="max-w-xs space-y-1">
        <Label htmlFor="kyc-status">Status</Label>
        <Select
          id="kyc-status"
          value={status || 'all'}
          onChange={(event) => update({ status: event.target.value, id: null })}
        >
          <option value="pending">Pending</option>
          <option value="approved">Approved</option>
          <option value="rejected">Rejected</option>
          <option value="all">All</option>
        </Select>
      </div>
      {queue.isPending ? (
        <Spinner label="Loading the queue" />
      ) : queue.isError ? (
        <LoadError onRetry={() => void queue.refetch()}>
          The queue could not be loaded: {queue.error.message}
        </LoadError>
      ) : submissions.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed p-8 text-center text-muted">
          No verification requests here.
        </p>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[20rem_1fr]">
          <ul
            aria-label="Verification requests"
            className="divide-y divide-border rounded-lg border border-border self-start"
          >
            {submissions.map((submission) => (
              <li key={submission.id}>
                <button
                  type="button"
                  aria-current={submission.id === selectedId ? 'true' : undefined}
                  onClick={() => update({ id: submission.id })}
                  className={cn(
                    'block w-full space-y-1 p-4 text-left hover:bg-surface-raised focus-visible:outline-2 focus-visible:outline-ring',
                    submission.id === selectedId && 'bg-surface-raised',
                  )}
                >
                  <span className="flex items-center gap-2">
                    <span className="font-medium">{submission.legal_name}</span>
                    <KycStatusBadge status={submission.status} />
                  </span>
                  <span className="block text-muted text-sm">{submission.user.email}</span>
                  <span className="block text-muted text-xs">
                    {tierLabels[submission.requested_tier]} requested ·{' '}
                    {dateFormat.format(new Date(submission.submitted_at))}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {selected ? (
            <SubmissionDetails submission={selected} />
          ) : (
            <p className="rounded-lg border border-border border-dashed p-8 text-center text-muted">
              Choose a request to review it.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
