import { Button } from '@/components/ui/button.js';

// A read that failed: said so, with a way to try again, instead of an empty list.
export function ReadErrorState({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-destructive/40 p-4"
    >
      <p className="text-sm">{title}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
