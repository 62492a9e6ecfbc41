import type { Deal } from '@covenant/domain';
import { ArrowRight, MapPin } from 'lucide-react';
import { generatePath, Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { paths } from '@/config/paths.js';
import { Badge } from './badge.js';
import { DealStatusBadge } from './deal-status-badge.js';
import { formatDealAmount } from './format-deal-amount.js';

export function TradeCard({ deal }: { deal: Deal }) {
  return (
    <Card
      className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between"
      data-testid="trade-card"
    >
      <div className="space-y-2">
        <p className="font-semibold text-lg">
          {formatDealAmount(deal.asset_amount, deal.asset_symbol)} <span className="text-muted">for</span>{' '}
          {formatDealAmount(deal.stable_amount, deal.stable_symbol)}
        </p>
        <p className="flex items-center gap-1 text-muted text-sm">
          {deal.asset_chain} <ArrowRight className="size-3.5" aria-label="to" /> {deal.stable_chain}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <DealStatusBadge status={deal.status} />
          {deal.meeting_required && (
            <Badge tone="warning">
              <MapPin aria-hidden />
              Meeting Required
            </Badge>
          )}
          <span className="text-muted text-xs">
            Created <time dateTime={deal.created_at}>{new Date(deal.created_at).toLocaleDateString()}</time>
          </span>
        </div>
      </div>
      <Button asChild variant="outline">
        <Link to={generatePath(paths.tradingDeal, { id: deal.id })}>View Details</Link>
      </Button>
    </Card>
  );
}
