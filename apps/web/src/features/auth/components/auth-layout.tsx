import type { ReactNode } from 'react';
import { PageTitle } from '@/components/page-title.js';
import { Card } from '@/components/ui/card.js';

type AuthLayoutProps = {
  title: string;
  heading: string;
  description: string;
  children: ReactNode;
  footer: ReactNode;
};

export function AuthLayout({ title, heading, description, children, footer }: AuthLayoutProps) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12 sm:py-20">
      <PageTitle title={title} />
      <h1 className="text-center font-semibold text-2xl tracking-tight sm:text-3xl">{heading}</h1>
      <p className="mt-2 text-center text-muted">{description}</p>
      <Card className="mt-8 p-5 sm:p-6">{children}</Card>
      <div className="mt-6 text-center text-muted text-sm">{footer}</div>
    </div>
  );
}
