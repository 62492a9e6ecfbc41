import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useAuth } from '@/lib/auth.js';
import { useStaffAlerts } from '../api/get-staff-alerts.js';
import { StaffAlertItem } from '../components/staff-alert-item.js';

/**
 * `/staff/alerts`: the escrow engine's open alerts, newest first, for mediators, compliance and admins.
 * Only compliance and admins mark one resolved (the API refuses mediators too), so mediators read only.
 */
export function StaffAlertsRoute() {
  const { user } = useAuth();
  const roles: unknown = user?.app_metadata.roles;
  const canResolve = Array.isArray(roles) && (roles.includes('admin') || roles.includes('compliance'));
  const alerts = useStaffAlerts();
  const list = alerts.data?.data ?? [];

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Escrow alerts" />
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">Escrow alerts</h1>
        <p className="mt-2 text-muted">
          What the escrow engine could not settle on its own: books that do not balance, payouts the chain
          refused, deposits of the wrong token. Amounts are in the token’s base units.
          {canResolve ? '' : ' Compliance officers and admins mark alerts resolved.'}
        </p>
      </div>
      {alerts.isPending ? (
        <Spinner label="Loading alerts" />
      ) : alerts.isError ? (
        <LoadError onRetry={() => void alerts.refetch()}>
          The alerts could not be loaded: {alerts.error.message}
        </LoadError>
      ) : list.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed p-8 text-center text-muted">
          No open alerts.
        </p>
      ) : (
        <ul className="space-y-3" aria-label="Open alerts">
          {list.map((alert) => (
            <StaffAlertItem key={alert.id} alert={alert} canResolve={canResolve} />
          ))}
        </ul>
      )}
    </div>
  );
}
