import type { DealWithHistory } from '@covenant/domain';
import { CheckCircle2 } from 'lucide-react';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { partnerName } from '@/features/trading/components/partner-name.js';
import { QueryErrorState } from '@/features/trading/components/query-error-state.js';
import { useDealCis } from '../api/cis-get-deal-cis.js';
import { CisCounterpartySection } from './cis-counterparty-section.js';
import { CisOwnSection } from './cis-own-section.js';

/**
 * The CIS exchange of a deal: the viewer's attached CIS and its review, and the counterparty's CIS
 * to read and approve or reject once the viewer has attached its own. Sheets are attached and
 * reviewed only while the deal is a draft.
 */
export function CisPanel({ deal, viewerId }: { deal: DealWithHistory; viewerId: string | undefined }) {
  const exchange = useDealCis(deal.id);
  if (!viewerId) return null;
  const party = viewerId === deal.buyer_id ? 'buyer' : 'seller';
  const other = party === 'buyer' ? 'seller' : 'buyer';
  const canAct = deal.status === 'draft';

  return (
    <Card className="space-y-6">
      <h2 className="font-semibold text-xl">CIS exchange</h2>
      {exchange.isError ? (
        <QueryErrorState
          title="The CIS exchange could not be loaded."
          onRetry={() => void exchange.refetch()}
        />
      ) : !exchange.data ? (
        <Spinner label="Loading the CIS exchange" />
      ) : (
        <>
          {exchange.data.buyer?.status === 'approved' && exchange.data.seller?.status === 'approved' ? (
            <p className="flex items-center gap-2 font-medium text-primary">
              <CheckCircle2 className="size-5" aria-hidden />
              Both CIS approved
            </p>
          ) : null}
          <div className="grid gap-8 md:grid-cols-2">
            <CisOwnSection dealId={deal.id} entry={exchange.data[party]} canAct={canAct} />
            <CisCounterpartySection
              dealId={deal.id}
              party={other}
              name={partnerName(deal[other])}
              entry={exchange.data[other]}
              ownAttached={exchange.data[party] !== null}
              canAct={canAct}
            />
          </div>
        </>
      )}
    </Card>
  );
}
