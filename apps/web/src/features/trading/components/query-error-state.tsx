import { AlertTriangle } from 'lucide-react';
import { Button } from '@/components/ui/button.js';

// A read that failed: said so, with a way to try again, instead of an empty page.
export function QueryErrorState({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-lg border border-destructive/40 p-6 text-center"
    >
      <AlertTriangle className="size-6 text-destructive" aria-hidden />
      <p className="font-medium">{title}</p>
      <p className="text-muted text-sm">Check your connection and try again.</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
