import type { StaffDealSummary } from '@covenant/domain';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Button } from '@/components/ui/button.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { formatUtcTime } from '@/features/staff/components/format-utc-time.js';
import { formatTokenAmount } from '@/features/staff-disputes/components/token-amount.js';
import { useStaffDealSearch } from '../api/search-staff-deals.js';
import { DealViewersOnly } from '../components/deal-viewers-only.js';

const matchLabels: Record<StaffDealSummary['matched'], string> = {
  deal: 'Deal ID',
  escrow: 'Escrow ID',
  user: 'A party',
  address: 'An address',
};

/** `/staff/deals`: compliance officers, mediators and admins find any deal; `?q=` holds the search. */
export function StaffDealsRoute() {
  return (
    <DealViewersOnly>
      <StaffDeals />
    </DealViewersOnly>
  );
}

function StaffDeals() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const [text, setText] = useState(q);
  const search = useStaffDealSearch(q);
  const found = search.data?.data ?? [];

  // Searched on submit, not per keystroke: every search is recorded in each listed deal's audit trail.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = text.trim();
    setParams(next ? new URLSearchParams({ q: next }) : new URLSearchParams(), { replace: true });
  };

  return (
    <div className="mx-auto w-full max-w-5xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Deals" />
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">Deals</h1>
        <p className="mt-2 text-muted">
          Find any deal by deal ID, escrow ID, a party’s user ID, e-mail address or username, or an address
          (deposit, payout, refund, or where a deposit came from). Matches are exact, in any case. Every
          search and every deal opened is recorded in that deal’s audit trail.
        </p>
      </div>
      <search>
        <form className="flex max-w-2xl flex-wrap items-end gap-2" onSubmit={submit}>
          <div className="min-w-0 flex-1 basis-64 space-y-1">
            <Label htmlFor="staff-deals-search">Search deals</Label>
            <Input
              id="staff-deals-search"
              type="search"
              placeholder="Deal ID, e-mail, username or address"
              maxLength={200}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
          <Button type="submit">Search</Button>
        </form>
      </search>
      {!q ? null : search.isPending ? (
        <Spinner label="Searching deals" />
      ) : search.isError ? (
        <LoadError onRetry={() => void search.refetch()}>The search failed: {search.error.message}</LoadError>
      ) : found.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed p-8 text-center text-muted">
          No deal matches “{q}”.
        </p>
      ) : (
        <section aria-labelledby="staff-deals-results" className="space-y-3">
          <h2 id="staff-deals-results" className="font-semibold text-lg">
            {found.length} {found.length === 1 ? 'deal' : 'deals'} for “{q}”
          </h2>
          <ul className="space-y-3" aria-label="Deals found">
            {found.map((deal) => (
              <DealRow key={deal.id} deal={deal} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function DealRow({ deal }: { deal: StaffDealSummary }) {
  return (
    <li className="min-w-0 space-y-1 rounded-md border border-border p-4 text-sm">
      <Link to={paths.staffDeal.replace(':id', deal.id)} className="font-medium text-primary hover:underline">
        {formatTokenAmount(deal.asset_amount, deal.asset_symbol)} for{' '}
        {formatTokenAmount(deal.stable_amount, deal.stable_symbol)}
      </Link>
      <p className="text-muted text-xs">
        {deal.asset_chain} → {deal.stable_chain} · {deal.status.replaceAll('_', ' ')} · created{' '}
        {formatUtcTime(deal.created_at)} · matched: {matchLabels[deal.matched]}
      </p>
      <p className="break-all">
        Buyer {deal.buyer.email}
        {deal.buyer.username ? ` (@${deal.buyer.username})` : ''} · Seller {deal.seller.email}
        {deal.seller.username ? ` (@${deal.seller.username})` : ''}
      </p>
      <p className="break-all font-mono text-muted text-xs">{deal.id}</p>
    </li>
  );
}
