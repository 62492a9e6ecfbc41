import type { ReactNode } from 'react';
import { PageTitle } from '@/components/page-title.js';
import { cn } from '@/lib/cn.js';

// The frame of an informational page: its title, a heading and an introduction, then its content.
// Reading pages stay narrow; pages of cards and tables use the site's full width.
export function ContentPage({
  title,
  intro,
  eyebrow,
  wide = false,
  actions,
  children,
}: {
  title: string;
  intro: string;
  eyebrow?: string;
  wide?: boolean;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className={cn('mx-auto w-full px-4 py-16 sm:px-6 sm:py-20', wide ? 'max-w-6xl' : 'max-w-4xl')}>
      <PageTitle title={title} />
      {eyebrow && <p className="font-semibold text-primary text-sm uppercase tracking-wider">{eyebrow}</p>}
      <h1 className={cn('font-semibold text-3xl tracking-tight sm:text-4xl', eyebrow && 'mt-2')}>{title}</h1>
      <p className="mt-4 max-w-2xl text-lg text-muted">{intro}</p>
      {actions && <div className="mt-8 flex flex-col gap-3 sm:flex-row">{actions}</div>}
      {children}
    </div>
  );
}
