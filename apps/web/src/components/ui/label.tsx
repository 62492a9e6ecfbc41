import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn.js';

export function Label({
  className,
  htmlFor,
  children,
  ...props
}: ComponentProps<'label'> & { htmlFor: string }) {
  return (
    <label htmlFor={htmlFor} className={cn('font-medium text-foreground text-sm', className)} {...props}>
      {children}
    </label>
  );
}
