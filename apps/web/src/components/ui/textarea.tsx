import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn.js';

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      className={cn(
        'min-h-32 w-full min-w-0 rounded-md border border-border bg-background px-3 py-2 text-foreground text-sm placeholder:text-muted focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring/40 disabled:opacity-50 aria-invalid:border-destructive',
        className,
      )}
      {...props}
    />
  );
}
