import type { DealParty, DealWithHistory, EscrowStatusLegView } from '@covenant/domain';
import { formatDealAmount } from '@/features/trading/components/format-deal-amount.js';
import type { EscrowViewer } from './escrow-viewer.js';

type Transfer = NonNullable<EscrowStatusLegView['payout']>['transfers'][number];

/** Which party an address belongs to, by the payout and refund addresses they set on the deal. */
function ownerOf(deal: DealWithHistory, address: string): DealParty | null {
  const wanted = address.toLowerCase();
  for (const party of ['buyer', 'seller'] as const) {
    const own = deal.addresses[party];
    if (own && [own.payout_address, own.refund_address].some((a) => a.toLowerCase() === wanted)) return party;
  }
  return null;
}

function recipient(deal: DealWithHistory, viewer: EscrowViewer, transfer: Transfer): string {
  if (transfer.kind === 'fee') return 'Covenant’s fee address';
  const owner = ownerOf(deal, transfer.to);
  return owner ? viewer.nameOf(owner) : 'an address';
}

const verbs: Record<Transfer['kind'], string> = { payout: 'Pays', fee: 'Fee of', refund: 'Refunds' };

/**
 * Each transfer of a leg's payout in words — how much, to whom, and the exact address — so a party
 * knows what it approves or what moved. Amounts are exact; the fee is its own line.
 */
export function PayoutTransfers({
  deal,
  viewer,
  leg,
  transfers,
}: {
  deal: DealWithHistory;
  viewer: EscrowViewer;
  leg: Pick<EscrowStatusLegView, 'leg' | 'symbol'>;
  transfers: readonly Transfer[];
}) {
  return (
    <ul className="space-y-2" aria-label={`Transfers of the ${leg.leg} leg`}>
      {transfers.map((transfer) => (
        <li key={`${transfer.kind}-${transfer.to}-${transfer.amount}`} className="space-y-0.5 text-sm">
          <p>
            {verbs[transfer.kind]}{' '}
            <span className="font-medium">{formatDealAmount(transfer.amount, leg.symbol)}</span> to{' '}
            {recipient(deal, viewer, transfer)}
          </p>
          <p className="break-all font-mono text-muted text-xs">{transfer.to}</p>
        </li>
      ))}
    </ul>
  );
}
