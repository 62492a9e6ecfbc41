import { type DealWithHistory, isTokenSymbol, tokenDecimals } from '@covenant/domain';
import { base64 } from '@scure/base';
import { useState } from 'react';
import { toast } from 'sonner';
import { UnlockEscrowKey } from '@/features/escrow-key/components/unlock-escrow-key.js';
import { solanaEscrowKeyFromSeed } from '@/features/escrow-key/lib/solana-escrow-key.js';
import type { EscrowLegWithSigning, SolanaLegCustody, SolanaSummary } from '../api/escrow-leg-signing.js';
import { type ChainView, listedMintOf } from '../api/get-chains.js';
import { useReleaseEscrow } from '../api/release-escrow.js';
import {
  agreedGrossToReceiver,
  agreedLegTerms,
  signingKindOf,
  travelChargedToReceiver,
} from '../lib/agreed-leg-terms.js';
import {
  checkSolanaPayout,
  type SolanaPayoutExpectation,
  signSolanaPayout,
} from '../lib/check-solana-payout.js';
import { approvalSentence } from './approval-sentence.js';
import type { EscrowViewer } from './escrow-viewer.js';
import { PayoutTransfers } from './payout-transfers.js';

/** What the message is checked against (the summary, the custody, the deal, the chain), or why it cannot be. */
function expectationOf(
  deal: DealWithHistory,
  leg: EscrowLegWithSigning,
  custody: SolanaLegCustody | null,
  summary: SolanaSummary | null,
  chain: ChainView,
): SolanaPayoutExpectation | string {
  if (!summary)
    return 'This payout comes without the summary of what it pays, so it cannot be checked or signed.';
  if (!custody) return 'This leg comes without its custody, so its payout cannot be checked or signed.';
  if (!isTokenSymbol(leg.symbol)) return `This page does not know the token ${leg.symbol}.`;
  try {
    const terms = agreedLegTerms(deal, leg.leg);
    return {
      summary,
      custody,
      decimals: tokenDecimals[leg.symbol],
      received: leg.received,
      depositAddress: leg.deposit_address,
      expectedMint: listedMintOf([chain], leg.chain, leg.symbol),
      agreed: {
        terms,
        gross: agreedGrossToReceiver(deal, leg.leg, terms, signingKindOf(leg)),
        feeAddress: chain.fee_address,
        // Travel is paid out of the stable leg; only its release charges the receiver for it.
        travelCharge:
          leg.leg === 'stable' && signingKindOf(leg) === 'release' ? travelChargedToReceiver(deal) : 0n,
      },
    };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function refusalOf(message: string, expected: SolanaPayoutExpectation | string): string | null {
  if (typeof expected === 'string') return expected;
  try {
    checkSolanaPayout(base64.decode(message), expected);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The viewer's approval of a Solana leg's payout: the message is read in this browser and checked
 * to pay exactly the transfers shown (recipient amount, platform fee, any refund) and nothing else,
 * then the escrow password unlocks the seed, whose Solana escrow key signs the message bytes; only
 * the signature is sent. A message that does not check out is not offered for signing. The same
 * flow confirms a refund.
 */
export function ConfirmSolanaPayout({
  deal,
  viewer,
  leg,
  custody,
  message,
  summary,
  chain,
  owed,
}: {
  deal: DealWithHistory;
  viewer: EscrowViewer;
  /** The other leg has been paid out: this one is owed (`approvalSentence`). */
  owed: boolean;
  leg: EscrowLegWithSigning;
  custody: SolanaLegCustody | null;
  message: string;
  summary: SolanaSummary | null;
  /** The SOL entry of `GET /chains` (fee address, mints); undefined while the list loads. */
  chain: ChainView | undefined;
}) {
  const release = useReleaseEscrow(deal.id);
  const [signError, setSignError] = useState<string | null>(null);
  const refund = signingKindOf(leg) === 'refund';
  const label = refund ? 'Confirm refund' : 'Confirm settlement';
  const titleId = `escrow-confirm-${leg.leg}-title`;
  const expected: SolanaPayoutExpectation | string | null = chain
    ? expectationOf(deal, leg, custody, summary, chain)
    : null;
  // Checked before the password is asked for: a payout that does not check out is never signable.
  const refusal = expected === null ? null : refusalOf(message, expected);

  const confirm = (mnemonic: string) => {
    setSignError(null);
    release.reset();
    if (expected === null || typeof expected === 'string') return;
    let signature: string;
    try {
      const key = solanaEscrowKeyFromSeed(mnemonic);
      if (leg.signer && key.address !== leg.signer) {
        throw new Error(`It asks for the Solana key ${leg.signer}, and yours is ${key.address}.`);
      }
      signature = signSolanaPayout(message, expected, key);
    } catch (error) {
      const reason = error instanceof Error ? ` ${error.message}` : '';
      setSignError(`Your escrow key could not sign this payout.${reason} Nothing was sent.`);
      return;
    }
    release.mutate(
      { leg: leg.leg, signature },
      { onSuccess: () => toast.success(refund ? 'Refund confirmed' : 'Settlement confirmed') },
    );
  };

  const problem = signError ?? (release.isError ? release.error.message : null);
  // Only transfers checked against the message and the deal are shown.
  const transfers = expected !== null && !refusal ? (summary?.transfers ?? []) : [];
  return (
    <section aria-labelledby={titleId} className="space-y-4 rounded-lg border border-primary/40 p-4">
      <h3 id={titleId} className="font-medium">
        {label}
      </h3>
      <p className="text-muted text-sm">{approvalSentence(leg, viewer, owed)}</p>
      {transfers.length > 0 ? (
        <PayoutTransfers deal={deal} viewer={viewer} leg={leg} transfers={transfers} />
      ) : null}
      <p className="text-sm">
        Network fee <span className="font-medium">none</span>{' '}
        <span className="text-muted">(Covenant pays the Solana network fee, not out of these amounts)</span>
      </p>
      {leg.signer ? (
        <p className="text-muted text-xs">
          Signed in this browser with your Solana escrow key{' '}
          <span className="break-all font-mono">{leg.signer}</span>; your password and seed never leave it.
        </p>
      ) : null}
      {refusal ? (
        <p role="alert" className="text-destructive text-sm">
          {refusal} Contact support.
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      ) : null}
      {expected === null ? (
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
