import { type ReactNode, useId } from 'react';
import { Card } from '@/components/ui/card.js';

/** One titled card of a record page (a staff case or deal), a region named by its heading. */
export function RecordSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Card className="min-w-0 space-y-4">
        <h2 id={headingId} className="font-semibold text-lg">
          {title}
        </h2>
        {children}
      </Card>
    </section>
  );
}

/**
 * Label/value pairs, side by side from the small breakpoint up. Values keep their line breaks and
 * wrap anywhere, so a long address or hash never pushes a phone screen wider.
 */
export function RecordFields({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted">{label}</dt>
          <dd className="min-w-0 whitespace-pre-line [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
