import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button.js';

// A read that failed: what could not be loaded and why, with a way to ask again.
export function LoadError({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  return (
    <div role="alert" className="space-y-3">
      <p className="text-destructive">{children}</p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
