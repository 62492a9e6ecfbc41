import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button.js';

// A secret the server returns once and stores only hashed: shown until dismissed, with a copy button.
export function ShownOnceSecret({
  label,
  secret,
  onDismiss,
}: {
  label: string;
  secret: string;
  onDismiss: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  return (
    <section aria-label={label} className="space-y-3 rounded-lg border border-primary/40 bg-primary/10 p-4">
      <p className="font-medium text-sm">{label}</p>
      <p className="text-muted text-xs">Copy it now: it will not be shown again.</p>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded-md bg-background px-3 py-2 font-mono text-sm">
          {secret}
        </code>
        <Button variant="outline" size="sm" onClick={copy}>
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <Button variant="link" size="sm" onClick={onDismiss}>
        I have saved it
      </Button>
    </section>
  );
}
