import { disputeEvidenceRules, disputeReasonSchema } from '@covenant/domain';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Label } from '@/components/ui/label.js';
import { Textarea } from '@/components/ui/textarea.js';
import { useOpenDispute } from '../api/dispute-open.js';

const accept = disputeEvidenceRules.contentTypes.join(',');

/** The evidence a form holds is checked here for count and size; the server checks each file's content. */
export function checkEvidenceFiles(files: File[]): string | undefined {
  if (files.length > disputeEvidenceRules.maxFiles) return 'Attach at most 5 evidence files';
  const large = files.find((file) => file.size > disputeEvidenceRules.maxBytes);
  if (large) return `${large.name} is larger than 10 MB`;
  const other = files.find(
    (file) => !(disputeEvidenceRules.contentTypes as readonly string[]).includes(file.type),
  );
  if (other) return `${other.name} is not a PDF, PNG or JPEG file`;
  return undefined;
}

/** "Open a dispute": the reason and evidence, then a confirm step, since a dispute stops the deal until a mediator decides. */
export function DisputeOpenForm({ dealId }: { dealId: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [problem, setProblem] = useState<{ field: 'reason' | 'evidence'; message: string }>();
  const dispute = useOpenDispute(dealId);

  if (!open) {
    return (
      <div className="space-y-2">
        <p className="text-muted text-sm">
          If the other party does not keep to the agreed terms, a mediator can decide what happens to the
          escrow.
        </p>
        <Button variant="outline" onClick={() => setOpen(true)}>
          Open a dispute
        </Button>
      </div>
    );
  }

  const review = () => {
    const parsed = disputeReasonSchema.safeParse(reason);
    if (!parsed.success) {
      setProblem({ field: 'reason', message: parsed.error.issues[0]!.message });
      return;
    }
    const fileProblem = checkEvidenceFiles(files);
    if (fileProblem) {
      setProblem({ field: 'evidence', message: fileProblem });
      return;
    }
    setProblem(undefined);
    setConfirming(true);
  };

  const submit = () =>
    dispute.mutate(
      { reason: reason.trim(), evidence: files },
      {
        onSuccess: () =>
          toast.success('Dispute opened', { description: 'A mediator will review this deal.' }),
        onError: (error) => {
          setConfirming(false);
          toast.error('The dispute was not opened', { description: error.message });
        },
      },
    );

  if (confirming) {
    return (
      <div role="alertdialog" aria-labelledby={`${id}-confirm`} className="space-y-3">
        <p id={`${id}-confirm`} className="font-medium">
          Open a dispute on this deal?
        </p>
        <p className="text-muted text-sm">
          The deal stops until a mediator decides: release per the terms, refund both deposits, or a split.
          {files.length > 0 &&
            ` ${files.length} evidence file${files.length === 1 ? '' : 's'} will be attached.`}
        </p>
        <div className="flex gap-3">
          <Button onClick={submit} disabled={dispute.isPending}>
            Open the dispute
          </Button>
          <Button variant="outline" onClick={() => setConfirming(false)} disabled={dispute.isPending}>
            Go back
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="space-y-4">
      <div className="space-y-2">
        <Label htmlFor={`${id}-reason`}>Reason</Label>
        <Textarea
          id={`${id}-reason`}
          rows={5}
          value={reason}
          maxLength={4000}
          aria-invalid={problem?.field === 'reason' ? true : undefined}
          aria-describedby={problem?.field === 'reason' ? `${id}-reason-error` : undefined}
          onChange={(event) => setReason(event.target.value)}
        />
        <FieldError
          id={`${id}-reason-error`}
          message={problem?.field === 'reason' ? problem.message : undefined}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${id}-evidence`}>
          Evidence (optional: up to 5 PDF, PNG or JPEG files, 10 MB each)
        </Label>
        <input
          id={`${id}-evidence`}
          type="file"
          multiple
          accept={accept}
          className="block text-sm"
          aria-invalid={problem?.field === 'evidence' ? true : undefined}
          aria-describedby={problem?.field === 'evidence' ? `${id}-evidence-error` : undefined}
          onChange={(event) => setFiles(Array.from(event.target.files ?? []))}
        />
        <FieldError
          id={`${id}-evidence-error`}
          message={problem?.field === 'evidence' ? problem.message : undefined}
        />
      </div>
      <div className="flex gap-3">
        <Button onClick={review}>Continue</Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
