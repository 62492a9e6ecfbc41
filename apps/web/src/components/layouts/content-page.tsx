import type { ReactNode } from 'react';
import { PageTitle } from '@/components/page-title.js';

// The frame of an informational page: its title, a heading and an introduction, then its content.
export function ContentPage({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-16 sm:px-6 sm:py-24">
      <PageTitle title={title} />
      <h1 className="font-semibold text-3xl tracking-tight sm:text-4xl">{title}</h1>
      <p className="mt-4 max-w-2xl text-lg text-muted">{intro}</p>
      {children}
    </div>
  );
}
