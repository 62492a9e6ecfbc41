import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import type { StaffAlert } from '../api/get-staff-alerts.js';
import { useResolveStaffAlert } from '../api/resolve-staff-alert.js';
import { AlertDetails } from './alert-details.js';
import { describeAlertKind } from './describe-alert-kind.js';
import { isReturnableForeignDeposit, ReturnForeignDeposit } from './return-foreign-deposit.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/**
 * Where an alert's deal opens in the staff deal view: its page when the alert names the deal, a search
 * by escrow id when it names only the escrow (the search lists that escrow's deal), else nowhere.
 */
export function staffDealLinkOf(details: Record<string, unknown>): string | null {
  const { deal_id: dealId, escrow_id: escrowId } = details;
  if (typeof dealId === 'string' && dealId) return paths.staffDeal.replace(':id', encodeURIComponent(dealId));
  if (typeof escrowId === 'string' && escrowId)
    return `${paths.staffDeals}?${new URLSearchParams({ q: escrowId })}`;
  return null;
}

/**
 * One open alert: when, what kind, the engine's message, its subject and details, a link to the deal
 * in the staff deal view when the alert is about one, and "Mark resolved" for those who may close it
 * (`canResolve`), who also send a held wrong-token deposit, or one whose return failed, back to the
 * party who sent it.
 */
export function StaffAlertItem({ alert, canResolve }: { alert: StaffAlert; canResolve: boolean }) {
  const kind = describeAlertKind(alert.kind);
  const resolve = useResolveStaffAlert(alert.id, kind);
  const dealLink = staffDealLinkOf(alert.details);

  return (
    <li aria-label={kind} className="space-y-3 rounded-md border border-border p-4">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-muted text-xs">
            <time dateTime={alert.created_at}>{dateFormat.format(new Date(alert.created_at))} UTC</time>
          </p>
          <h2 className="font-semibold">{kind}</h2>
          <p>{alert.message}</p>
          <p className="break-all text-muted text-xs">Subject: {alert.subject}</p>
        </div>
        {canResolve && (
          <Button size="sm" variant="outline" disabled={resolve.isPending} onClick={() => resolve.mutate()}>
            Mark resolved
          </Button>
        )}
      </div>
      <AlertDetails details={alert.details} />
      {canResolve && isReturnableForeignDeposit(alert) && <ReturnForeignDeposit alert={alert} />}
      {dealLink && (
        <Link to={dealLink} className="inline-block font-medium text-primary text-sm hover:underline">
          Open the deal
        </Link>
      )}
    </li>
  );
}
