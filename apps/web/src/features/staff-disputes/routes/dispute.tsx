import { Link, useParams } from 'react-router';
import { toast } from 'sonner';
import { BackLink } from '@/components/back-link.js';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { ApiError } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import { useAssignDispute } from '../api/assign-dispute.js';
import { useStaffDispute } from '../api/get-staff-dispute.js';
import {
  CaseAudit,
  CaseCis,
  CaseDeal,
  CaseEvidence,
  CaseMeeting,
  CaseMessages,
  CaseTerms,
  caseNames,
} from '../components/case-sections.js';
import { DecisionForm } from '../components/decision-form.js';
import { describeStaffError, StaffForbidden } from '../components/staff-request-error.js';
import { formatTokenAmount } from '../components/token-amount.js';

const decisionLabels = { release: 'Released per terms', refund: 'Both refunded', split: 'Split' } as const;

/** `/staff/disputes/:id`: one case with everything on it, taking it, and the decision. */
export function StaffDisputeRoute() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const query = useStaffDispute(id);
  const assign = useAssignDispute(id);

  if (query.error instanceof ApiError && query.error.status === 403)
    return <StaffForbidden error={query.error} />;

  const data = query.data;
  const dispute = data?.dispute;
  return (
    <div className="mx-auto w-full max-w-5xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Dispute" />
      <BackLink to={paths.staffDisputes}>Back to Disputes</BackLink>
      <h1 className="font-semibold text-3xl tracking-tight">Dispute</h1>
      {query.isPending ? (
        <Spinner label="Loading the case" />
      ) : query.isError ? (
        query.error instanceof ApiError && query.error.status === 404 ? (
          <p className="text-muted">This dispute does not exist.</p>
        ) : (
          <LoadError onRetry={() => void query.refetch()}>
            The case could not be loaded: {query.error.message}
          </LoadError>
        )
      ) : data && dispute ? (
        <>
          <p className="text-sm">
            <Link
              to={paths.staffDeal.replace(':id', data.deal.id)}
              className="font-medium text-primary hover:underline"
            >
              Open the deal in the staff deal view
            </Link>
            <span className="text-muted"> — escrow legs, on-chain movements, payouts and alerts</span>
          </p>
          <CaseDeal data={data} />
          <CaseEvidence data={data} />
          <CaseCis data={data} />
          <CaseTerms data={data} />
          <CaseMeeting data={data} />
          <CaseMessages data={data} />
          <CaseAudit data={data} />
          <section aria-label="Decision">
            <Card className="space-y-4">
              <h2 className="font-semibold text-lg">Decision</h2>
              {dispute.status === 'decided' ? (
                <div className="space-y-2 text-sm">
                  <p className="font-medium">{dispute.decision ? decisionLabels[dispute.decision] : '—'}</p>
                  {dispute.effect === 'deal_cancelled' && (
                    <p>
                      The decision cancelled the deal: it was disputed before its escrow opened, so nothing
                      was deposited and no money moved.
                    </p>
                  )}
                  {dispute.amounts && (
                    <ul>
                      <li>
                        Asset: {formatTokenAmount(dispute.amounts.asset.buyer, data.deal.asset_symbol)} to the
                        buyer, {formatTokenAmount(dispute.amounts.asset.seller, data.deal.asset_symbol)} to
                        the seller
                      </li>
                      <li>
                        Stable: {formatTokenAmount(dispute.amounts.stable.buyer, data.deal.stable_symbol)} to
                        the buyer, {formatTokenAmount(dispute.amounts.stable.seller, data.deal.stable_symbol)}{' '}
                        to the seller
                      </li>
                    </ul>
                  )}
                  <p className="whitespace-pre-line">{dispute.rationale}</p>
                </div>
              ) : dispute.mediator_id !== user?.id ? (
                <div className="space-y-2">
                  <p className="text-muted text-sm">
                    {dispute.mediator_id
                      ? `Another mediator (${caseNames(data).get(dispute.mediator_id) ?? dispute.mediator_id}) holds this case.`
                      : 'Nobody has taken this case yet.'}
                  </p>
                  <Button
                    onClick={() =>
                      assign.mutate(undefined, {
                        onError: (error) =>
                          toast.error('The case was not taken', { description: describeStaffError(error) }),
                      })
                    }
                    disabled={assign.isPending}
                  >
                    Take this case
                  </Button>
                </div>
              ) : (
                <DecisionForm
                  disputeId={dispute.id}
                  escrowOpened={data.escrow_opened}
                  shortLegs={data.escrow_short_legs}
                  decideBy={data.escrow_decide_by}
                  travel={data.escrow_travel}
                  legs={{
                    asset: { amount: data.deal.asset_amount, symbol: data.deal.asset_symbol },
                    stable: { amount: data.deal.stable_amount, symbol: data.deal.stable_symbol },
                  }}
                />
              )}
            </Card>
          </section>
        </>
      ) : null}
    </div>
  );
}
