import { cn } from '@/lib/cn.js';
export type KycStatus = 'pending' | 'approved' | 'rejected';

const styles: Record<KycStatus, { label: string; className: string }> = {
  pending: { label: 'Under review', className: 'border-amber-400/40 bg-amber-400/10 text-amber-300' },
  approved: { label: 'Approved', className: 'border-primary/40 bg-primary/15 text-primary' },
  rejected: { label: 'Rejected', className: 'border-destructive/40 bg-destructive/15 text-destructive' },
};

export function KycStatusBadge({ status }: { status: KycStatus }) {
  const { label, className } = styles[status];
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 font-medium text-xs',
        className,
      )}
    >
      {label}
    </span>
  );
}
