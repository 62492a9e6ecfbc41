import type { DealStatus, DealWithHistory } from '@covenant/domain';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Label } from '@/components/ui/label.js';
import { Textarea } from '@/components/ui/textarea.js';
import { useCancelDeal } from '../api/cancel-deal.js';

/** Either party may cancel until the escrow is funded (the transition table in @covenant/domain). */
const cancellable: readonly DealStatus[] = ['draft', 'cis_submitted', 'terms_agreed'];
const maxReason = 1000;

/** "Cancel deal": a reason (kept in the audit trail), then a confirm step, since a cancelled deal never changes again. */
export function CancelDealPanel({ deal, viewerId }: { deal: DealWithHistory; viewerId: string | undefined }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string>();
  const cancel = useCancelDeal(deal.id);
  const isParty = viewerId === deal.buyer_id || viewerId === deal.seller_id;
  if (!isParty || !cancellable.includes(deal.status)) return null;

  const review = () => {
    const trimmed = reason.trim();
    if (trimmed.length === 0) return setProblem('Say why you cancel the deal');
    if (trimmed.length > maxReason) return setProblem(`At most ${maxReason} characters`);
    setProblem(undefined);
    setConfirming(true);
  };
  const submit = () =>
    cancel.mutate(reason.trim(), {
      onSuccess: () => {
        toast.success('Deal cancelled', { description: 'The other party has been told.' });
        setOpen(false);
        setConfirming(false);
      },
      onError: (error) => {
        setConfirming(false);
        toast.error('The deal was not cancelled', { description: error.message });
      },
    });

  return (
    <Card aria-labelledby={`${id}-title`} className="space-y-3">
      <h2 id={`${id}-title`} className="font-semibold text-lg">
        Cancel this deal
      </h2>
      {!open ? (
        <>
          <p className="text-muted text-sm">
            Either party can cancel until the escrow is funded. A cancelled deal can no longer change.
          </p>
          <Button variant="outline" onClick={() => setOpen(true)}>
            Cancel deal
          </Button>
        </>
      ) : confirming ? (
        <div role="alertdialog" aria-labelledby={`${id}-confirm`} className="space-y-3">
          <p id={`${id}-confirm`} className="font-medium">
            Cancel this deal for good?
          </p>
          <p className="text-muted text-sm">Reason: {reason.trim()}</p>
          <div className="flex flex-wrap gap-2">
            <Button
              className="bg-destructive text-background hover:bg-destructive/90"
              disabled={cancel.isPending}
              onClick={submit}
            >
              Yes, cancel the deal
            </Button>
            <Button variant="outline" disabled={cancel.isPending} onClick={() => setConfirming(false)}>
              Keep the deal
            </Button>
          </div>
        </div>
      ) : (
        <form
          className="space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            review();
          }}
        >
          <div className="space-y-1">
            <Label htmlFor={`${id}-reason`}>Reason for cancelling</Label>
            <Textarea
              id={`${id}-reason`}
              value={reason}
              maxLength={maxReason}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-reason-error` : undefined}
              onChange={(event) => setReason(event.target.value)}
            />
            <FieldError id={`${id}-reason-error`} message={problem} />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="outline">
              Continue
            </Button>
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              Back
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
