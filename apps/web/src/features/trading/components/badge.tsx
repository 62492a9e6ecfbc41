import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn.js';

export const badgeVariants = cva(
  'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 font-medium text-xs [&_svg]:size-3.5',
  {
    variants: {
      tone: {
        neutral: 'border-border bg-surface-raised text-foreground',
        success: 'border-primary/40 bg-primary/15 text-primary',
        destructive: 'border-destructive/40 bg-destructive/15 text-destructive',
        warning: 'border-amber-400/40 bg-amber-400/10 text-amber-300',
      },
    },
    defaultVariants: { tone: 'neutral' },
  },
);

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>['tone']>;

export function Badge({ className, tone, ...props }: ComponentProps<'span'> & { tone?: BadgeTone }) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
