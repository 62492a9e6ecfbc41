import { useParams } from 'react-router';
import { BackLink } from '@/components/back-link.js';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { useChains } from '@/features/escrow/api/get-chains.js';
import { ApiError } from '@/lib/api-client.js';
import { useStaffDeal } from '../api/get-staff-deal.js';
import {
  DealAlerts,
  DealAudit,
  DealEscrow,
  DealParties,
  DealPayouts,
  DealTerms,
} from '../components/deal-sections.js';
import { DealViewersOnly } from '../components/deal-viewers-only.js';

/** `/staff/deals/:id`: one deal whole for compliance officers, mediators and admins; the read is audited. */
export function StaffDealRoute() {
  return (
    <DealViewersOnly>
      <StaffDeal />
    </DealViewersOnly>
  );
}

function StaffDeal() {
  const { id = '' } = useParams();
  const query = useStaffDeal(id);
  // The explorers for transaction links; without them the hashes are shown unlinked.
  const chains = useChains(true);
  const view = query.data;

  return (
    <div className="mx-auto w-full max-w-5xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Deal" />
      <BackLink to={paths.staffDeals}>Back to Deals</BackLink>
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">Deal</h1>
        <p className="mt-2 break-all text-muted text-sm">
          {id} · This read is recorded in the deal’s audit trail.
        </p>
      </div>
      {query.isPending ? (
        <Spinner label="Loading the deal" />
      ) : query.isError ? (
        query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400) ? (
          <p
            role="alert"
            className="rounded-lg border border-border border-dashed p-8 text-center text-muted"
          >
            No deal has the ID “{id}”.
          </p>
        ) : (
          <LoadError onRetry={() => void query.refetch()}>
            The deal could not be loaded: {query.error.message}
          </LoadError>
        )
      ) : view ? (
        <>
          <DealTerms view={view} />
          <DealParties view={view} />
          <DealEscrow view={view} chains={chains.data ?? []} />
          <DealPayouts view={view} chains={chains.data ?? []} />
          <DealAlerts view={view} />
          <DealAudit view={view} />
        </>
      ) : null}
    </div>
  );
}
