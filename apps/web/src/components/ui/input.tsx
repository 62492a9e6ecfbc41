import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn.js';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        'h-10 w-full min-w-0 rounded-md border border-border bg-background px-3 text-foreground text-sm placeholder:text-muted focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring/40 disabled:opacity-50',
        className,
      )}
      {...props}
    />
  );
}
