import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn.js';

// The native select: keyboard, screen readers and phones' pickers work without extra code.
export function Select({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        'h-10 w-full min-w-0 rounded-md border border-border bg-background px-3 text-foreground text-sm focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring/40 disabled:opacity-50 aria-invalid:border-destructive',
        className,
      )}
      {...props}
    />
  );
}
