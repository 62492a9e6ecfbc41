import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card.js';

export function ChannelCard({
  channel,
  action,
}: {
  channel: { icon: LucideIcon; title: string; availability: string; text: string; href?: string };
  /** What the card opens (the live chat's button). */
  action?: ReactNode;
}) {
  const Icon = channel.icon;
  return (
    <Card className="h-full">
      <Icon aria-hidden="true" className="size-6 text-primary" />
      <h3 className="mt-4 font-semibold">{channel.title}</h3>
      <p className="mt-1 font-medium text-primary text-sm">{channel.availability}</p>
      <p className="mt-2 break-words text-muted text-sm">
        {channel.href ? (
          <a href={channel.href} className="text-foreground underline-offset-4 hover:underline">
            {channel.text}
          </a>
        ) : (
          channel.text
        )}
      </p>
      {action}
    </Card>
  );
}
