import { tierLabels } from '@covenant/domain';
import { BadgeCheck, Search } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { Input } from '@/components/ui/input.js';
import { Spinner } from '@/components/ui/spinner.js';
import type { Partner } from '../api/get-partners.js';
import { Badge } from './badge.js';
import { partnerName } from './partner-name.js';
import { QueryErrorState } from './query-error-state.js';

type FindPartnersProps = {
  partners: Partner[] | undefined;
  failed: boolean;
  onRetry: () => void;
  onSelect: (partner: Partner) => void;
};

export function FindPartners({ partners, failed, onRetry, onSelect }: FindPartnersProps) {
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  // By the name each card shows: the username, or "Trader <id>" for a partner without one.
  const matches = partners?.filter((partner) => partnerName(partner).toLowerCase().includes(needle));

  return (
    <div className="space-y-4">
      <div className="relative">
        <Search className="-translate-y-1/2 absolute top-1/2 left-3 size-4 text-muted" aria-hidden />
        <Input
          type="search"
          aria-label="Search partners by username"
          placeholder="Search by username"
          className="pl-9"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      {failed ? (
        <QueryErrorState title="Partners could not be loaded." onRetry={onRetry} />
      ) : !matches ? (
        <Spinner label="Loading partners" />
      ) : matches.length === 0 ? (
        <p className="py-8 text-center text-muted">
          {needle ? `No verified partners match "${search.trim()}".` : 'No verified partners yet.'}
        </p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {matches.map((partner) => (
            <li key={partner.id}>
              <Card className="flex items-center justify-between gap-3 p-4" data-testid="partner-card">
                <div className="space-y-1">
                  <p className="font-medium">{partnerName(partner)}</p>
                  <div className="flex items-center gap-2">
                    <Badge>{tierLabels[partner.trading_tier]} Tier</Badge>
                    <Badge tone="success">
                      <BadgeCheck aria-hidden />
                      Verified
                    </Badge>
                  </div>
                </div>
                <Button size="sm" onClick={() => onSelect(partner)}>
                  Select Partner
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
