import { type DealWithHistory, parseBaseUnits } from '@covenant/domain';
import { useState } from 'react';
import { toast } from 'sonner';
import { UnlockEscrowKey } from '@/features/escrow-key/components/unlock-escrow-key.js';
import {
  bitcoinEscrowKeyFromSeed,
  bitcoinKeyNetworkOfAddress,
} from '@/features/escrow-key/lib/bitcoin-escrow-key.js';
import { formatDealAmount } from '@/features/trading/components/format-deal-amount.js';
import { type EscrowLegWithSigning, isBitcoinCustody, type PsbtSummary } from '../api/escrow-leg-signing.js';
import type { ChainView } from '../api/get-chains.js';
import { useReleaseEscrow } from '../api/release-escrow.js';
import { agreedGrossToReceiver, agreedLegTerms, signingKindOf } from '../lib/agreed-leg-terms.js';
import {
  type BitcoinPayoutExpectation,
  checkBitcoinPayout,
  signEscrowPsbt,
} from '../lib/sign-escrow-psbt.js';
import { approvalSentence } from './approval-sentence.js';
import type { EscrowViewer } from './escrow-viewer.js';
import { PayoutTransfers } from './payout-transfers.js';

/** What the PSBT is checked against (the leg, the deal, the chain), or why it cannot be. */
function expectationOf(
  deal: DealWithHistory,
  leg: EscrowLegWithSigning,
  chain: ChainView | undefined,
): BitcoinPayoutExpectation | string {
  try {
    const terms = agreedLegTerms(deal, leg.leg);
    return {
      depositAddress: leg.deposit_address,
      custody: isBitcoinCustody(leg.custody) ? leg.custody : null,
      feeAddress: chain?.fee_address,
      terms,
      gross: agreedGrossToReceiver(deal, leg.leg, terms, signingKindOf(leg)),
    };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function refusalOf(
  psbt: string,
  summary: PsbtSummary | null,
  expected: BitcoinPayoutExpectation | string,
): string | null {
  if (typeof expected === 'string') return expected;
  try {
    checkBitcoinPayout(psbt, summary, expected);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The viewer's approval of a Bitcoin leg's payout: what the transaction pays (recipient, platform fee,
 * network fee and out of whose amount, and any output too small to pay folded into the network fee),
 * then the escrow password to unlock the seed in this browser, which signs the server's PSBT with the
 * Bitcoin escrow key and sends it back signed. The same flow confirms a refund. The PSBT is checked
 * against its summary, the leg's custody and the deal first (`checkBitcoinPayout`): one that does
 * not check out is never offered for signing.
 */
export function ConfirmBitcoinPayout({
  deal,
  viewer,
  leg,
  psbt,
  summary,
  chain,
  owed,
}: {
  deal: DealWithHistory;
  viewer: EscrowViewer;
  /** The other leg has been paid out: this one is owed (`approvalSentence`). */
  owed: boolean;
  leg: EscrowLegWithSigning;
  psbt: string;
  summary: PsbtSummary | null;
  /** The BTC entry of `GET /chains` (its fee address); undefined while the list loads. */
  chain: ChainView | undefined;
}) {
  const release = useReleaseEscrow(deal.id);
  const [signError, setSignError] = useState<string | null>(null);
  const refund = signingKindOf(leg) === 'refund';
  const label = refund ? 'Confirm refund' : 'Confirm settlement';
  const titleId = `escrow-confirm-${leg.leg}-title`;
  const expected = expectationOf(deal, leg, chain);
  // Checked before the password is asked for: a payout that does not match the deal is never signable.
  const refusal = chain ? refusalOf(psbt, summary, expected) : null;

  const confirm = (mnemonic: string) => {
    setSignError(null);
    release.reset();
    if (typeof expected === 'string') return;
    let signed: string;
    try {
      const key = bitcoinEscrowKeyFromSeed(mnemonic, bitcoinKeyNetworkOfAddress(leg.deposit_address));
      signed = signEscrowPsbt(psbt, key.privateKey, summary, expected);
    } catch (error) {
      const reason = error instanceof Error ? ` ${error.message}` : '';
      setSignError(`Your escrow key could not sign this payout.${reason} Nothing was sent.`);
      return;
    }
    release.mutate(
      { leg: leg.leg, psbt: signed },
      { onSuccess: () => toast.success(refund ? 'Refund confirmed' : 'Settlement confirmed') },
    );
  };

  const problem = signError ?? (release.isError ? release.error.message : null);
  // Only outputs checked against the PSBT and the deal are shown.
  const transfers = chain && !refusal ? (summary?.outputs ?? []) : [];
  // What the depositor's refund pays of the network fee for its deposit outputs the amount did not need.
  const refundShare = parseBaseUnits(summary?.refund_network_fee ?? '0') ?? 0n;
  const recipientShare = (parseBaseUnits(summary?.network_fee ?? '0') ?? 0n) - refundShare;
  return (
    <section aria-labelledby={titleId} className="space-y-4 rounded-lg border border-primary/40 p-4">
      <h3 id={titleId} className="font-medium">
        {label}
      </h3>
      <p className="text-muted text-sm">{approvalSentence(leg, viewer, owed)}</p>
      {transfers.length > 0 ? (
        <PayoutTransfers deal={deal} viewer={viewer} leg={leg} transfers={transfers} />
      ) : null}
      {summary ? (
        <p className="text-sm">
          Network fee <span className="font-medium">{formatDealAmount(summary.network_fee, leg.symbol)}</span>{' '}
          {refundShare > 0n ? (
            <span className="text-muted">
              ({String(summary.fee_rate_sat_vb)} sat/vB), paid to the Bitcoin miners:{' '}
              {formatDealAmount(recipientShare.toString(), leg.symbol)} out of the recipient’s amount,{' '}
              {formatDealAmount(refundShare.toString(), leg.symbol)} out of the depositor’s refund for the
              deposit outputs beyond those the amount needed
            </span>
          ) : (
            <span className="text-muted">
              ({String(summary.fee_rate_sat_vb)} sat/vB), paid to the Bitcoin miners out of the recipient’s
              amount
            </span>
          )}
        </p>
      ) : null}
      {summary && summary.dust_folded.length > 0 ? (
        <p className="text-sm">
          {summary.dust_folded.length === 1
            ? `An output below the dust limit (${formatDealAmount(summary.dust_folded[0]!.amount, leg.symbol)}) was folded into the network fee: it would cost more to spend than it is worth.`
            : `Outputs below the dust limit (${summary.dust_folded.map((output) => formatDealAmount(output.amount, leg.symbol)).join(', ')}) were folded into the network fee: they would cost more to spend than they are worth.`}
        </p>
      ) : null}
      {leg.signer ? (
        <p className="text-muted text-xs">
          Signed in this browser with your Bitcoin escrow key{' '}
          <span className="break-all font-mono">{leg.signer}</span>; your password and seed never leave it.
        </p>
      ) : null}
      {refusal ? (
        <p role="alert" className="text-destructive text-sm">
          {refusal} Do not approve this payout anywhere else; contact support.
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      ) : null}
      {!chain ? (
        <p role="status" className="text-muted text-sm">
          Checking this payout against the deal…
        </p>
      ) : refusal ? null : release.isPending ? (
        <p role="status" className="text-muted text-sm">
          Sending your confirmation…
        </p>
      ) : (
        <UnlockEscrowKey onUnlocked={confirm} submitLabel={label} />
      )}
    </section>
  );
}
