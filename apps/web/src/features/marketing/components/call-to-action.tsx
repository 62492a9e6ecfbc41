import type { ReactNode } from 'react';

// The closing band of a page: a question the visitor may still have, and where to go next.
export function CallToAction({
  id,
  title,
  text,
  children,
}: {
  id: string;
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className="mt-16 rounded-2xl border border-primary/30 bg-primary/5 p-8 text-center sm:p-12"
    >
      <h2 id={id} className="font-semibold text-2xl tracking-tight">
        {title}
      </h2>
      <p className="mx-auto mt-3 max-w-xl text-muted">{text}</p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">{children}</div>
    </section>
  );
}
