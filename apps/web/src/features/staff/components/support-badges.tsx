import { type SupportPriority, supportPriorityLabels } from '@covenant/domain';
import { cn } from '@/lib/cn.js';
import { type SupportStatus, supportStatusLabels } from '../api/support-message.js';

const statusStyles: Record<SupportStatus, string> = {
  open: 'border-primary/50 text-primary',
  in_progress: 'border-amber-400/50 text-amber-300',
  resolved: 'border-border text-muted',
  closed: 'border-border text-muted',
};

const priorityStyles: Record<SupportPriority, string> = {
  urgent: 'border-destructive/60 text-destructive',
  high: 'border-amber-400/50 text-amber-300',
  normal: 'border-border text-foreground',
  low: 'border-border text-muted',
};

const badge = 'inline-flex items-center rounded-full border px-2 py-0.5 font-medium text-xs';

export function StatusBadge({ status }: { status: SupportStatus }) {
  return <span className={cn(badge, statusStyles[status])}>{supportStatusLabels[status]}</span>;
}

export function PriorityBadge({ priority }: { priority: SupportPriority }) {
  return <span className={cn(badge, priorityStyles[priority])}>{supportPriorityLabels[priority]}</span>;
}
