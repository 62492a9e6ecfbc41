import { CheckCircle2, Copy } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';

/** The agreed version and the terms hash in full, which either party can recompute (docs/audit-trail.md). */
export function TermsAgreed({ version, hash }: { version: number; hash: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(hash);
      toast.success('Terms hash copied');
    } catch {
      toast.error('Could not copy', { description: 'Select the hash and copy it by hand.' });
    }
  };
  return (
    <div className="space-y-2 rounded-lg border border-primary/40 p-4">
      <p className="flex items-center gap-2 font-medium text-primary">
        <CheckCircle2 className="size-5" aria-hidden />
        Terms agreed — version {version}
      </p>
      <p className="text-muted text-xs uppercase tracking-wide">Terms hash (SHA-256)</p>
      <div className="flex items-start gap-2">
        <code className="min-w-0 flex-1 break-all font-mono text-sm">{hash}</code>
        <Button variant="outline" size="sm" onClick={() => void copy()} aria-label="Copy terms hash">
          <Copy aria-hidden />
          Copy
        </Button>
      </div>
    </div>
  );
}
