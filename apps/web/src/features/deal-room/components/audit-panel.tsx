import type { DealWithHistory } from '@covenant/domain';
import { Download, ShieldAlert, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { LoadError } from '@/components/load-error.js';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { ApiError, useApiClient } from '@/lib/api-client.js';
import { dealAuditExportFileName, downloadDealAuditExport } from '../api/audit-export.js';
import { useDealAudit } from '../api/audit-get.js';

/**
 * The deal's audit trail: whether its hash chain verifies (the server recomputes it on every read),
 * the latest hash, and the JSON export with the command that checks it offline.
 */
export function AuditPanel({ deal }: { deal: DealWithHistory; viewerId: string | undefined }) {
  const audit = useDealAudit(deal.id);
  const fileName = dealAuditExportFileName(deal.id);
  const trail = audit.data;
  const broken = trail?.entries.find((entry) => entry.seq === trail.broken_at_seq);
  const latest = trail?.entries.at(-1);

  return (
    <section aria-labelledby="audit-heading">
      <Card className="space-y-4">
        <h2 id="audit-heading" className="font-semibold text-lg">
          Audit trail
        </h2>
        {audit.isPending ? (
          <Spinner label="Loading the audit trail" />
        ) : audit.isError ? (
          <LoadError onRetry={() => void audit.refetch()}>
            The audit trail could not be loaded: {audit.error.message}
          </LoadError>
        ) : trail!.verified ? (
          <p role="status" className="flex items-center gap-2 font-medium text-primary">
            <ShieldCheck className="size-5 shrink-0" aria-hidden />
            Verified — {trail!.entries.length} {trail!.entries.length === 1 ? 'entry' : 'entries'}, chain
            intact
          </p>
        ) : (
          <p role="alert" className="flex items-center gap-2 font-medium text-destructive">
            <ShieldAlert className="size-5 shrink-0" aria-hidden />
            Verification failed at entry {trail!.broken_at_seq}
            {broken ? ` (${broken.action})` : ''}: the record was changed after it was written. Contact
            support before you go on.
          </p>
        )}
        {latest && (
          <div>
            <h3 className="text-muted text-xs uppercase tracking-wide">Latest hash (entry {latest.seq})</h3>
            <p className="break-all font-mono text-xs" data-testid="audit-latest-hash">
              {latest.hash}
            </p>
          </div>
        )}
        <DownloadExport dealId={deal.id} fileName={fileName} />
        <div className="space-y-1">
          <p className="text-muted text-sm">
            Check the downloaded file yourself, offline, in a copy of the Covenant code:
          </p>
          <code className="block break-all rounded-md bg-background px-3 py-2 font-mono text-xs">
            npx covenant verify-audit {fileName}
          </code>
        </div>
      </Card>
    </section>
  );
}

function DownloadExport({ dealId, fileName }: { dealId: string; fileName: string }) {
  const api = useApiClient();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const url = URL.createObjectURL(await downloadDealAuditExport(api, dealId));
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      link.click();
      // The click has handed the file to the browser; the URL is not needed after this turn.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (error) {
      toast.error('The audit trail could not be downloaded', {
        description: error instanceof ApiError ? error.message : 'Please try again.',
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outline" size="sm" disabled={busy} onClick={() => void download()}>
      <Download aria-hidden />
      Download audit trail (JSON)
    </Button>
  );
}
