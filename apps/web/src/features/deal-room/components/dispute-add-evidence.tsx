import { disputeEvidenceRules } from '@covenant/domain';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Label } from '@/components/ui/label.js';
import { useAddDisputeEvidence } from '../api/dispute-evidence.js';
import { checkEvidenceFiles } from './dispute-open-form.js';

/** More evidence for an open dispute. */
export function DisputeAddEvidence({ dealId, disputeId }: { dealId: string; disputeId: string }) {
  const id = useId();
  const [files, setFiles] = useState<File[]>([]);
  const [problem, setProblem] = useState<string>();
  const [inputKey, setInputKey] = useState(0);
  const add = useAddDisputeEvidence(dealId, disputeId);

  const submit = () => {
    const found = files.length === 0 ? 'Choose at least one file' : checkEvidenceFiles(files);
    setProblem(found);
    if (found) return;
    add.mutate(files, {
      onSuccess: () => {
        toast.success('Evidence added');
        setFiles([]);
        setInputKey((key) => key + 1);
      },
      onError: (error) => toast.error('The evidence was not added', { description: error.message }),
    });
  };

  return (
    <div className="space-y-2">
      <Label htmlFor={`${id}-files`}>Add evidence</Label>
      <div className="flex flex-wrap items-center gap-3">
        <input
          key={inputKey}
          id={`${id}-files`}
          type="file"
          multiple
          accept={disputeEvidenceRules.contentTypes.join(',')}
          className="block text-sm"
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(event) => setFiles(Array.from(event.target.files ?? []))}
        />
        <Button variant="outline" size="sm" onClick={submit} disabled={add.isPending}>
          Upload
        </Button>
      </div>
      <FieldError id={`${id}-error`} message={problem} />
    </div>
  );
}
