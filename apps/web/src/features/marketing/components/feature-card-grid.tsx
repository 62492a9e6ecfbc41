import type { LucideIcon } from 'lucide-react';
import { Card } from '@/components/ui/card.js';
import { cn } from '@/lib/cn.js';

export type FeatureCard = { icon: LucideIcon; title: string; text: string; points?: string[] };

export function FeatureCardGrid({
  cards,
  label,
  columns = 4,
}: {
  cards: FeatureCard[];
  label: string;
  columns?: 3 | 4;
}) {
  return (
    <ul
      aria-label={label}
      className={cn('mt-12 grid gap-4 sm:grid-cols-2', columns === 4 ? 'lg:grid-cols-4' : 'lg:grid-cols-3')}
    >
      {cards.map(({ icon: Icon, title, text, points }) => (
        <li key={title}>
          <Card className="h-full">
            <Icon aria-hidden="true" className="size-6 text-primary" />
            <h2 className="mt-4 font-semibold text-lg">{title}</h2>
            <p className="mt-2 text-muted text-sm leading-relaxed">{text}</p>
            {points && (
              <ul className="mt-3 list-disc space-y-1 pl-4 text-muted text-sm marker:text-primary">
                {points.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
            )}
          </Card>
        </li>
      ))}
    </ul>
  );
}
