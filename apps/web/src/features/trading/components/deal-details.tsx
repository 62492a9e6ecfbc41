import { type DealWithHistory, tierLabels } from '@covenant/domain';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card.js';
import { DealStatusBadge } from './deal-status-badge.js';
import { formatDealAmount } from './format-deal-amount.js';
import { partnerName } from './partner-name.js';

const formatTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <dt className="text-muted text-xs uppercase tracking-wide">{label}</dt>
      <dd className="break-all text-sm">{children}</dd>
    </div>
  );
}

// Every field of a deal, then its history so far, oldest first.
export function DealDetails({ deal, viewerId }: { deal: DealWithHistory; viewerId: string | undefined }) {
  const party = (side: 'buyer' | 'seller') => {
    const person = deal[side];
    const tier = person.trading_tier ? ` (${tierLabels[person.trading_tier]} Tier)` : '';
    return `${partnerName(person)}${tier}${person.id === viewerId ? ' — you' : ''}`;
  };
  const names = new Map([
    [deal.buyer.id, partnerName(deal.buyer)],
    [deal.seller.id, partnerName(deal.seller)],
  ]);
  return (
    <div className="space-y-6">
      <Card>
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
          <h2 className="font-semibold text-xl">
            {formatDealAmount(deal.asset_amount, deal.asset_symbol)} for{' '}
            {formatDealAmount(deal.stable_amount, deal.stable_symbol)}
          </h2>
          <DealStatusBadge status={deal.status} />
        </div>
        <dl className="grid gap-4 sm:grid-cols-2">
          <Field label="Deal ID">{deal.id}</Field>
          <Field label="Status">
            <DealStatusBadge status={deal.status} />
          </Field>
          <Field label="Buyer">{party('buyer')}</Field>
          <Field label="Seller">{party('seller')}</Field>
          <Field label="Asset">
            {formatDealAmount(deal.asset_amount, deal.asset_symbol)} on {deal.asset_chain}
          </Field>
          <Field label="Stable">
            {formatDealAmount(deal.stable_amount, deal.stable_symbol)} on {deal.stable_chain}
          </Field>
          <Field label="Chains">
            {deal.asset_chain} → {deal.stable_chain}
          </Field>
          <Field label="Meeting Required">{deal.meeting_required ? 'Yes' : 'No'}</Field>
          <Field label="Meeting Location">{deal.travel_location || '—'}</Field>
          <Field label="Created">{formatTime(deal.created_at)}</Field>
          <Field label="Updated">{formatTime(deal.updated_at)}</Field>
          <Field label="Completed">{formatTime(deal.completed_at)}</Field>
        </dl>
      </Card>
      <Card>
        <h2 className="mb-4 font-semibold text-lg">History</h2>
        {deal.history.length === 0 ? (
          <p className="text-muted text-sm">Nothing has happened on this deal yet.</p>
        ) : (
          <ol className="space-y-3" aria-label="Deal history">
            {deal.history.map((entry) => (
              <li
                key={entry.seq}
                className="flex flex-wrap items-baseline gap-x-3 border-border border-l-2 pl-3"
              >
                <span className="font-medium text-sm">{entry.action}</span>
                <span className="text-muted text-xs">
                  {entry.actor_id ? (names.get(entry.actor_id) ?? entry.actor_id) : 'System'} ·{' '}
                  {formatTime(entry.created_at)}
                </span>
              </li>
            ))}
          </ol>
        )}
      </Card>
    </div>
  );
}
