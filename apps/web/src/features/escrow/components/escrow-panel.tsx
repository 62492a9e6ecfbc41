import type { DealStatus, DealWithHistory, EscrowStatusView } from '@covenant/domain';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { QueryErrorState } from '@/features/trading/components/query-error-state.js';
import { ApiError } from '@/lib/api-client.js';
import { useDevFund } from '../api/dev-fund.js';
import {
  type EscrowLegWithSigning,
  isSolanaCustody,
  legWithSigning,
  psbtToSign,
  solanaMessageToSign,
} from '../api/escrow-leg-signing.js';
import { listedMintOf, useChains } from '../api/get-chains.js';
import { useEscrow } from '../api/get-escrow.js';
import { useEscrowFollowsDeal } from '../api/use-escrow-follows-deal.js';
import { otherLegPaid } from './approval-sentence.js';
import { ConfirmBitcoinPayout } from './confirm-bitcoin-payout.js';
import { ConfirmPayout } from './confirm-payout.js';
import { ConfirmSolanaPayout } from './confirm-solana-payout.js';
import { EscrowCompleted } from './escrow-completed.js';
import { EscrowLegCard } from './escrow-leg-card.js';
import { type EscrowPanelProps, type EscrowViewer, escrowViewer } from './escrow-viewer.js';
import { SettlementCountdown } from './funding-countdown.js';
import { OpenEscrow } from './open-escrow.js';

/** An escrow exists only from agreed terms on; before that the panel has nothing to show. */
const escrowStatuses: readonly DealStatus[] = [
  'terms_agreed',
  'escrow_funded',
  'completed',
  'cancelled',
  'disputed',
];

/**
 * The deal's escrow for its two parties: opening it once the terms are agreed, then each leg's
 * deposit and confirmations, the viewer's confirmation of a payout, and finally what moved on-chain.
 */
export function EscrowPanel({ deal, viewerId }: { deal: DealWithHistory; viewerId: string | undefined }) {
  const viewer = escrowViewer(deal, viewerId);
  const shown = viewer !== null && escrowStatuses.includes(deal.status);
  const escrow = useEscrow(deal.id, shown);
  const chains = useChains(shown);
  useEscrowFollowsDeal(viewerId, deal.id);
  if (!viewer || !shown) return null;
  const missing = escrow.error instanceof ApiError && escrow.error.status === 404;
  // Only agreed terms can still open an escrow; a deal closed without one has nothing to show.
  if (missing && deal.status !== 'terms_agreed') return null;
  const cancelledBecause = cancellationNote(deal);

  return (
    <section aria-labelledby="escrow-panel-title">
      <Card className="space-y-6">
        <h2 id="escrow-panel-title" className="font-semibold text-xl">
          Escrow
        </h2>
        {cancelledBecause ? <p className="text-sm">{cancelledBecause}</p> : null}
        {missing ? (
          <OpenEscrow deal={deal} />
        ) : escrow.isError && !escrow.data ? (
          <QueryErrorState title="The escrow could not be loaded." onRetry={() => void escrow.refetch()} />
        ) : !escrow.data ? (
          <Spinner label="Loading the escrow" />
        ) : escrow.data.status === 'settled' || escrow.data.status === 'refunded' ? (
          <div className="space-y-6">
            <PayoutsToSign deal={deal} viewer={viewer} escrow={escrow.data} chains={chains.data ?? []} />
            <EscrowCompleted deal={deal} viewer={viewer} escrow={escrow.data} chains={chains.data ?? []} />
          </div>
        ) : (
          <EscrowUnderWay deal={deal} viewer={viewer} escrow={escrow.data} chains={chains.data ?? []} />
        )}
      </Card>
    </section>
  );
}

/** Why the system cancelled a deal whose escrow was open, from its history; null when a party or a mediator did. */
const systemCancellations: Record<string, string> = {
  funding_deadline_passed:
    'The escrow was not funded by the funding deadline, so the deal was cancelled: each deposit goes back to its refund address.',
  settlement_window_passed:
    'The deal did not settle within its settlement window, so it was cancelled: each deposit goes back to its refund address.',
};

function cancellationNote(deal: DealWithHistory): string | null {
  if (deal.status !== 'cancelled') return null;
  const last = [...deal.history].reverse().find((entry) => entry.action in systemCancellations);
  return last ? (systemCancellations[last.action] ?? null) : null;
}

/** Where payouts stand for the viewer: signed and waiting for the other side, or on their way on-chain. */
function payoutNote(escrow: EscrowStatusView, viewer: EscrowViewer): string | null {
  const payouts = escrow.legs.flatMap((leg) => (leg.payout ? [leg.payout] : []));
  const sending = payouts.filter((p) => p.status === 'submitting' || p.status === 'submitted');
  if (sending.length > 0) {
    return sending.every((p) => p.kind === 'refund') ? 'Refunding on-chain' : 'Settling on-chain';
  }
  const awaitsSignature = (leg: EscrowLegWithSigning) => psbtToSign(leg) ?? solanaMessageToSign(leg);
  if (escrow.legs.some((leg) => leg.release_typed_data || awaitsSignature(legWithSigning(leg)))) return null;
  // A release the viewer approved is `ready` (theirs and the platform's approvals make two) until the
  // other leg's is too; only then are both sent.
  const releases = payouts.filter(
    (p) => p.kind === 'release' && (p.status === 'collecting' || p.status === 'ready'),
  );
  const approvedBy = (party: EscrowViewer['party']) => releases.some((p) => p.approved_by.includes(party));
  if (approvedBy(viewer.party) && !approvedBy(viewer.other))
    return `Waiting for ${viewer.counterparty} to confirm`;
  return null;
}

/**
 * The payouts awaiting the viewer's approval, each checked against the deal before it can be signed:
 * a leg's own payout while the escrow is under way, and once it has settled, the return of money
 * that reached a leg afterwards (a Bitcoin or Solana token leg's `late_deposit` refund, which a party
 * approves).
 */
function PayoutsToSign({ deal, viewer, escrow, chains }: EscrowPanelProps) {
  const toSign = escrow.legs.flatMap((leg) =>
    leg.release_typed_data ? [{ leg, typedData: leg.release_typed_data }] : [],
  );
  // The Bitcoin and Solana fields of a leg (PSBT or message to sign, custody), read where present.
  const legs: readonly EscrowLegWithSigning[] = escrow.legs.map(legWithSigning);
  const psbtsToSign = legs.flatMap((leg) => {
    const payload = psbtToSign(leg);
    return payload ? [{ leg, ...payload }] : [];
  });
  const solanaToSign = legs.flatMap((leg) => {
    const payload = solanaMessageToSign(leg);
    return payload ? [{ leg, ...payload }] : [];
  });
  return (
    <>
      {toSign.map(({ leg, typedData }) => (
        <ConfirmPayout
          key={leg.leg}
          deal={deal}
          viewer={viewer}
          leg={leg}
          owed={otherLegPaid(escrow.legs, leg)}
          typedData={typedData}
          chain={chains.find((entry) => entry.chain === leg.chain)}
        />
      ))}
      {psbtsToSign.map(({ leg, psbt, summary }) => (
        <ConfirmBitcoinPayout
          key={leg.leg}
          deal={deal}
          viewer={viewer}
          leg={leg}
          owed={otherLegPaid(escrow.legs, leg)}
          psbt={psbt}
          summary={summary}
          chain={chains.find((entry) => entry.chain === leg.chain)}
        />
      ))}
      {solanaToSign.map(({ leg, message, summary }) => (
        <ConfirmSolanaPayout
          key={leg.leg}
          deal={deal}
          viewer={viewer}
          leg={leg}
          owed={otherLegPaid(escrow.legs, leg)}
          custody={isSolanaCustody(leg.custody) ? leg.custody : null}
          message={message}
          summary={summary}
          chain={chains.find((entry) => entry.chain === leg.chain)}
        />
      ))}
    </>
  );
}

function EscrowUnderWay({ deal, viewer, escrow, chains }: EscrowPanelProps) {
  const devFund = useDevFund(deal.id);
  const note = payoutNote(escrow, viewer);
  const legs: readonly EscrowLegWithSigning[] = escrow.legs.map(legWithSigning);
  const onDevnet = (chain: string) => chains.some((c) => c.chain === chain && c.rpc_url !== undefined);
  // Until the settlement is on its way, a funded deal runs against its settlement window.
  const settling = legs.some(
    (leg) => leg.payout?.status === 'submitting' || leg.payout?.status === 'submitted',
  );
  return (
    <div className="space-y-6">
      {deal.status === 'escrow_funded' && escrow.status === 'funded' && escrow.settle_by && !settling ? (
        <SettlementCountdown settleBy={escrow.settle_by} />
      ) : null}
      {note ? (
        <p role="status" className="font-medium text-primary">
          {note}
        </p>
      ) : null}
      <PayoutsToSign deal={deal} viewer={viewer} escrow={escrow} chains={chains} />
      <div className="grid gap-4 lg:grid-cols-2">
        {legs.map((leg) => (
          <EscrowLegCard
            key={leg.leg}
            leg={leg}
            viewer={viewer}
            dealId={deal.id}
            expectedMint={listedMintOf(chains, leg.chain, leg.symbol)}
            fundingOpen={escrow.status === 'awaiting_funding'}
            devFund={
              leg.depositor === viewer.party && onDevnet(leg.chain)
                ? {
                    onFund: () => devFund.mutate(leg.leg),
                    pending: devFund.isPending && devFund.variables === leg.leg,
                    error: devFund.isError && devFund.variables === leg.leg ? devFund.error.message : null,
                  }
                : undefined
            }
          />
        ))}
      </div>
    </div>
  );
}
