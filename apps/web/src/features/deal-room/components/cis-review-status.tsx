import type { DealCisEntry } from '@covenant/domain';
import { Badge, type BadgeTone } from '@/features/trading/components/badge.js';

const statusLabels: Record<DealCisEntry['status'], { label: string; tone: BadgeTone }> = {
  pending: { label: 'Awaiting review', tone: 'warning' },
  approved: { label: 'Approved', tone: 'success' },
  rejected: { label: 'Rejected', tone: 'destructive' },
};

/** Where the review of an attached CIS stands, with the reviewer's comment on a rejection. */
export function CisReviewStatus({ entry }: { entry: DealCisEntry }) {
  const { label, tone } = statusLabels[entry.status];
  return (
    <div className="space-y-1">
      <Badge tone={tone}>{label}</Badge>
      {entry.review_comment ? (
        <p className="text-sm">
          <span className="text-muted">Comment: </span>
          {entry.review_comment}
        </p>
      ) : null}
    </div>
  );
}
