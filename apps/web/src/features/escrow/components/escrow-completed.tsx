import { type EscrowStatusLegView, type EscrowStatusView, parseBaseUnits } from '@covenant/domain';
import { ExternalLink } from 'lucide-react';
import { formatDealAmount } from '@/features/trading/components/format-deal-amount.js';
import { transactionUrlOf } from '../api/get-chains.js';
import { CopyButton } from './copy-button.js';
import type { EscrowPanelProps } from './escrow-viewer.js';
import { legStateText } from './leg-state-text.js';
import { PayoutTransfers } from './payout-transfers.js';

const legTitles = { asset: 'Asset leg', stable: 'Stablecoin leg' } as const;

/** The asset leg pays the buyer and the stable leg the seller: the escrow's per-party hashes follow. */
function transactionOf(escrow: EscrowStatusView, leg: EscrowStatusLegView): string | null {
  if (leg.payout?.transaction_hash) return leg.payout.transaction_hash;
  const sent = escrow.settlement_transactions;
  if (!sent) return null;
  return leg.leg === 'asset' ? sent.buyer : sent.seller;
}

/**
 * A Bitcoin payout's transfers are what its transaction paid; the network fee came out of the
 * recipient's amount, and out of the depositor's refund for deposit outputs the amount did not need.
 */
function bitcoinNetworkFeeNote(
  networkFee: string,
  refundNetworkFee: string | null | undefined,
  symbol: string,
): string {
  const refundShare = parseBaseUnits(refundNetworkFee ?? '0') ?? 0n;
  if (refundShare > 0n) {
    const recipientShare = (parseBaseUnits(networkFee) ?? 0n) - refundShare;
    return `Network fee ${formatDealAmount(networkFee, symbol)}, paid to the Bitcoin miners: ${formatDealAmount(recipientShare.toString(), symbol)} out of the recipient’s amount, ${formatDealAmount(refundShare.toString(), symbol)} out of the depositor’s refund for the deposit outputs beyond those the amount needed (with any output below the dust limit).`;
  }
  return `Network fee ${formatDealAmount(networkFee, symbol)}, paid to the Bitcoin miners out of the recipient’s amount (with any output below the dust limit).`;
}

/** A settled or refunded escrow: what each leg moved, and the transaction that moved it, to check on-chain. */
export function EscrowCompleted({ deal, viewer, escrow, chains }: EscrowPanelProps) {
  return (
    <div className="space-y-4">
      <p className="font-medium text-primary">
        {escrow.status === 'settled' ? 'The escrow is settled.' : 'The escrow is refunded.'}
      </p>
      {escrow.legs.map((leg) => {
        const hash = transactionOf(escrow, leg);
        const link = hash ? transactionUrlOf(chains, leg.chain, hash) : null;
        const titleId = `escrow-done-${leg.leg}-title`;
        return (
          <section
            key={leg.leg}
            aria-labelledby={titleId}
            className="space-y-3 rounded-lg border border-border p-4"
          >
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h3 id={titleId} className="font-medium">
                {legTitles[leg.leg]}
              </h3>
              <p className="font-medium text-sm">{legStateText(leg)}</p>
            </div>
            {leg.payout && leg.payout.transfers.length > 0 ? (
              <>
                <PayoutTransfers deal={deal} viewer={viewer} leg={leg} transfers={leg.payout.transfers} />
                {leg.payout.network_fee && leg.chain === 'BTC' ? (
                  <p className="text-muted text-xs">
                    {bitcoinNetworkFeeNote(leg.payout.network_fee, leg.payout.refund_network_fee, leg.symbol)}
                  </p>
                ) : null}
              </>
            ) : (
              <p className="text-muted text-sm">Nothing moved on this leg.</p>
            )}
            {hash ? (
              <div className="space-y-1">
                <p className="text-muted text-xs uppercase tracking-wide">Transaction</p>
                {link ? (
                  <a
                    href={link}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex items-center gap-1 break-all font-mono text-primary text-sm underline-offset-4 hover:underline"
                  >
                    {hash}
                    <ExternalLink className="size-3 shrink-0" aria-hidden />
                  </a>
                ) : (
                  <div className="flex items-start gap-2">
                    <code className="min-w-0 flex-1 break-all font-mono text-sm">{hash}</code>
                    <CopyButton text={hash} label="Copy transaction hash" copied="Transaction hash copied" />
                  </div>
                )}
              </div>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
