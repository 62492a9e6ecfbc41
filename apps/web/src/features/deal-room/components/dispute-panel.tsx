import type { DealWithHistory } from '@covenant/domain';
import { LoadError } from '@/components/load-error.js';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useEscrow } from '@/features/escrow/api/get-escrow.js';
import { settlementUnderWay } from '@/features/escrow/components/approval-sentence.js';
import { useDealDisputes } from '../api/dispute-list.js';
import { DisputeAddEvidence } from './dispute-add-evidence.js';
import { DisputeEvidenceList } from './dispute-evidence-list.js';
import { DisputeOpenForm } from './dispute-open-form.js';
import { DisputeOutcome } from './dispute-outcome.js';

const disputable = new Set(['terms_agreed', 'escrow_funded']);
// A deal only has disputes if it was disputable once; a decision leaves it completed or cancelled.
const mayHaveDisputes = new Set(['terms_agreed', 'escrow_funded', 'disputed', 'completed', 'cancelled']);

/** Opening a dispute with evidence, the open dispute while a mediator reviews it, and each decision. */
export function DisputePanel({ deal, viewerId }: { deal: DealWithHistory; viewerId: string | undefined }) {
  const disputes = useDealDisputes(deal.id, mayHaveDisputes.has(deal.status));
  // The deal page only ever shows the viewer's own deals (the server answers 404 for others').
  const canOpen = disputable.has(deal.status);
  // Once a leg has been paid out the other is owed: the server refuses a dispute (409).
  const escrow = useEscrow(deal.id, deal.status === 'escrow_funded');
  const settling = deal.status === 'escrow_funded' && settlementUnderWay(escrow.data?.legs ?? []);
  const list = disputes.data?.data ?? [];
  const open = list.find((dispute) => dispute.status === 'open');
  const decided = list.filter((dispute) => dispute.status === 'decided');

  if (!mayHaveDisputes.has(deal.status)) return null;
  if (disputes.isSuccess && list.length === 0 && !canOpen) return null;

  return (
    <section aria-labelledby="dispute-heading">
      <Card className="space-y-5">
        <h2 id="dispute-heading" className="font-semibold text-lg">
          Dispute
        </h2>
        {disputes.isPending ? (
          <Spinner label="Loading disputes" />
        ) : disputes.isError ? (
          <LoadError onRetry={() => void disputes.refetch()}>
            The disputes could not be loaded: {disputes.error.message}
          </LoadError>
        ) : (
          <>
            {open && (
              <div className="space-y-3">
                <p role="status" className="font-medium text-destructive">
                  A mediator is reviewing this deal
                </p>
                <div>
                  <h3 className="text-muted text-xs uppercase tracking-wide">Reason</h3>
                  <p className="whitespace-pre-line text-sm">{open.reason}</p>
                </div>
                <p className="text-muted text-xs">
                  Opened by {open.opened_by === viewerId ? 'you' : 'the other party'} on{' '}
                  {new Date(open.created_at).toLocaleString()}
                </p>
                <h3 className="font-medium text-sm">Evidence</h3>
                <DisputeEvidenceList dealId={deal.id} disputeId={open.id} evidence={open.evidence} />
                <DisputeAddEvidence dealId={deal.id} disputeId={open.id} />
              </div>
            )}
            {decided.map((dispute) => (
              <div key={dispute.id} className="space-y-3">
                <div>
                  <h3 className="text-muted text-xs uppercase tracking-wide">Reason</h3>
                  <p className="whitespace-pre-line text-sm">{dispute.reason}</p>
                </div>
                <DisputeEvidenceList dealId={deal.id} disputeId={dispute.id} evidence={dispute.evidence} />
                <DisputeOutcome deal={deal} dispute={dispute} />
              </div>
            ))}
            {canOpen && !open && settling && (
              <p className="text-muted text-sm">
                The settlement is under way: a leg has been paid out, so the deal can no longer be disputed.
                The other leg follows; contact support if it does not arrive.
              </p>
            )}
            {canOpen && !open && !settling && <DisputeOpenForm dealId={deal.id} />}
          </>
        )}
      </Card>
    </section>
  );
}
