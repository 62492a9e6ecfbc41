import type { DisputeEvidence } from '@covenant/domain';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { useApiClient } from '@/lib/api-client.js';
import { getDisputeEvidence } from '../api/dispute-evidence.js';

/** The dispute's evidence files; each is fetched with the Bearer header and handed to the browser as a download. */
export function DisputeEvidenceList({
  dealId,
  disputeId,
  evidence,
}: {
  dealId: string;
  disputeId: string;
  evidence: DisputeEvidence[];
}) {
  const api = useApiClient();
  const [busy, setBusy] = useState<string>();
  if (evidence.length === 0) return <p className="text-muted text-sm">No evidence attached.</p>;

  const download = async (file: DisputeEvidence) => {
    setBusy(file.id);
    try {
      const blob = await getDisputeEvidence(api, dealId, disputeId, file.id);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = file.filename;
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      toast.error(`${file.filename} could not be downloaded`, { description: (error as Error).message });
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <ul aria-label="Evidence" className="space-y-2">
      {evidence.map((file) => (
        <li key={file.id} className="flex flex-wrap items-center gap-3 text-sm">
          <span className="font-medium">{file.filename}</span>
          <span className="text-muted">
            {file.content_type}, {Math.max(1, Math.round(file.size / 1024))} KB
          </span>
          <Button variant="outline" size="sm" disabled={busy === file.id} onClick={() => void download(file)}>
            Download {file.filename}
          </Button>
        </li>
      ))}
    </ul>
  );
}
