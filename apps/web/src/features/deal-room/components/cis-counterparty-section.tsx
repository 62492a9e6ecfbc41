import { type DealCisEntry, rejectDealCisSchema } from '@covenant/domain';
import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Label } from '@/components/ui/label.js';
import { Textarea } from '@/components/ui/textarea.js';
import { CisSheetDetails } from '@/features/trading/components/cis-sheet-details.js';
import { ApiError, useApiClient } from '@/lib/api-client.js';
import { downloadDealCisPdf } from '../api/cis-download-pdf.js';
import { type CisReviewInput, useReviewDealCis } from '../api/cis-review.js';
import { CisReviewStatus } from './cis-review-status.js';

/**
 * The counterparty's CIS: everything in it, its signed PDF, and the viewer's approval or rejection.
 * The server shows it only once the viewer has attached its own (`ownAttached`); until then the
 * entry is null whether or not the counterparty attached one.
 */
export function CisCounterpartySection({
  dealId,
  party,
  name,
  entry,
  ownAttached,
  canAct,
}: {
  dealId: string;
  party: 'buyer' | 'seller';
  name: string;
  entry: DealCisEntry | null;
  ownAttached: boolean;
  canAct: boolean;
}) {
  const headingId = `${dealId}-counterparty-cis`;
  return (
    <section className="space-y-3" aria-labelledby={headingId}>
      <h3 id={headingId} className="font-medium">
        {name}'s CIS
      </h3>
      {entry ? (
        <>
          <CisSheetDetails sheet={entry.cis} />
          {entry.cis.has_pdf ? <DownloadPdf dealId={dealId} party={party} /> : null}
          <CisReviewStatus entry={entry} />
          {canAct ? <ReviewCis dealId={dealId} cisId={entry.cis.id} status={entry.status} /> : null}
        </>
      ) : ownAttached ? (
        <p className="text-muted text-sm">{name} has not attached a CIS yet.</p>
      ) : (
        <p className="text-muted text-sm">{name}'s CIS is shown here once you attach yours.</p>
      )}
    </section>
  );
}

function DownloadPdf({ dealId, party }: { dealId: string; party: 'buyer' | 'seller' }) {
  const api = useApiClient();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const url = URL.createObjectURL(await downloadDealCisPdf(api, dealId, party));
      const link = document.createElement('a');
      link.href = url;
      link.download = `cis-${party}.pdf`;
      link.click();
      // The click has handed the file to the browser; the URL is not needed after this turn.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (error) {
      toast.error('The PDF could not be downloaded', {
        description: error instanceof ApiError ? error.message : 'Please try again.',
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outline" size="sm" disabled={busy} onClick={() => void download()}>
      <Download aria-hidden />
      Download signed PDF
    </Button>
  );
}

// The verdict names the sheet shown (`cisId`): if the counterparty swaps it meanwhile, the server
// refuses the review rather than passing it to a sheet the viewer has not read.
function ReviewCis({
  dealId,
  cisId,
  status,
}: {
  dealId: string;
  cisId: string;
  status: DealCisEntry['status'];
}) {
  const review = useReviewDealCis(dealId);
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string>();
  const id = useId();
  const send = (input: CisReviewInput) =>
    review.mutate(input, {
      onSuccess: () => {
        setComment('');
        toast.success(input.verdict === 'approve' ? 'CIS approved' : 'CIS rejected');
      },
      onError: (error) =>
        toast.error('Review not saved', {
          description: error instanceof ApiError ? error.message : 'Please try again.',
        }),
    });

  return (
    <div className="space-y-3">
      {status !== 'approved' ? (
        <Button disabled={review.isPending} onClick={() => send({ verdict: 'approve', cisId })}>
          Approve
        </Button>
      ) : null}
      {status !== 'rejected' ? (
        <form
          noValidate
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            const parsed = rejectDealCisSchema.pick({ comment: true }).safeParse({ comment });
            setCommentError(parsed.success ? undefined : parsed.error.issues[0]?.message);
            if (parsed.success) send({ verdict: 'reject', cisId, comment: parsed.data.comment });
          }}
        >
          <Label htmlFor={`${id}-comment`}>Reason for rejecting</Label>
          <Textarea
            id={`${id}-comment`}
            rows={2}
            className="min-h-16"
            value={comment}
            aria-invalid={commentError ? true : undefined}
            aria-describedby={commentError ? `${id}-comment-error` : undefined}
            onChange={(event) => setComment(event.target.value)}
          />
          <FieldError id={`${id}-comment-error`} message={commentError} />
          <Button type="submit" variant="outline" disabled={review.isPending}>
            Reject
          </Button>
        </form>
      ) : null}
    </div>
  );
}
