import type { DealWithHistory, EscrowStatusLegView, TypedDataJson } from '@covenant/domain';
import { useState } from 'react';
import { toast } from 'sonner';
import { UnlockEscrowKey } from '@/features/escrow-key/components/unlock-escrow-key.js';
import { signEscrowTypedData } from '@/features/escrow-key/lib/escrow-seed.js';
import type { ChainView } from '../api/get-chains.js';
import { useReleaseEscrow } from '../api/release-escrow.js';
import { signingKindOf } from '../lib/agreed-leg-terms.js';
import { checkEthereumPayout } from '../lib/check-ethereum-payout.js';
import { approvalSentence } from './approval-sentence.js';
import type { EscrowViewer } from './escrow-viewer.js';
import { PayoutTransfers } from './payout-transfers.js';

/** The transfers the typed data makes, checked against the deal, or why it must not be signed. */
function checkedTransfers(
  deal: DealWithHistory,
  leg: EscrowStatusLegView,
  typedData: TypedDataJson,
  chain: ChainView,
): { transfers: Transfer[] } | { refusal: string } {
  try {
    return { transfers: checkEthereumPayout(typedData, { deal, leg, chain }) };
  } catch (error) {
    return { refusal: error instanceof Error ? error.message : String(error) };
  }
}

type Transfer = NonNullable<EscrowStatusLegView['payout']>['transfers'][number];

/**
 * The viewer's approval of one leg's payout: what exactly it pays (each transfer, the fee included),
 * then the escrow password to unlock the seed in this browser, which signs the server's EIP-712
 * payload locally and sends only the signature. The same flow confirms a refund of a cancelled deal.
 * The typed data is checked against the deal first (`checkEthereumPayout`) and the transfers shown
 * are the ones it makes; one that does not check out is never offered for signing.
 */
export function ConfirmPayout({
  deal,
  viewer,
  leg,
  typedData,
  chain,
  owed,
}: {
  deal: DealWithHistory;
  viewer: EscrowViewer;
  /** The other leg has been paid out: this one is owed (`approvalSentence`). */
  owed: boolean;
  leg: EscrowStatusLegView;
  typedData: TypedDataJson;
  /** The leg's chain as `GET /chains` lists it; undefined while the list loads. */
  chain: ChainView | undefined;
}) {
  const release = useReleaseEscrow(deal.id);
  const [signError, setSignError] = useState<string | null>(null);
  const refund = signingKindOf(leg) === 'refund';
  const label = refund ? 'Confirm refund' : 'Confirm settlement';
  const titleId = `escrow-confirm-${leg.leg}-title`;
  // Checked before the password is asked for: a payout that does not match the deal is never signable.
  const checked = chain ? checkedTransfers(deal, leg, typedData, chain) : null;
  const refusal = checked && 'refusal' in checked ? checked.refusal : null;

  const confirm = async (mnemonic: string) => {
    setSignError(null);
    release.reset();
    if (!chain) return;
    let signature: string;
    try {
      checkEthereumPayout(typedData, { deal, leg, chain });
      signature = await signEscrowTypedData(mnemonic, typedData);
    } catch {
      setSignError('Your escrow key could not sign this payout. Nothing was sent.');
      return;
    }
    release.mutate(
      { leg: leg.leg, signature },
      { onSuccess: () => toast.success(refund ? 'Refund confirmed' : 'Settlement confirmed') },
    );
  };

  const problem = signError ?? (release.isError ? release.error.message : null);
  return (
    <section aria-labelledby={titleId} className="space-y-4 rounded-lg border border-primary/40 p-4">
      <h3 id={titleId} className="font-medium">
        {label}
      </h3>
      <p className="text-muted text-sm">{approvalSentence(leg, viewer, owed)}</p>
      {checked && 'transfers' in checked ? (
        <PayoutTransfers deal={deal} viewer={viewer} leg={leg} transfers={checked.transfers} />
      ) : null}
      {leg.signer_address ? (
        <p className="text-muted text-xs">
          Signed in this browser with your escrow key{' '}
          <span className="break-all font-mono">{leg.signer_address}</span>; your password and seed never
          leave it.
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
      {!checked ? (
        <p role="status" className="text-muted text-sm">
          Checking this payout against the deal…
        </p>
      ) : refusal ? null : release.isPending ? (
        <p role="status" className="text-muted text-sm">
          Sending your confirmation…
        </p>
      ) : (
        <UnlockEscrowKey onUnlocked={(mnemonic: string) => void confirm(mnemonic)} submitLabel={label} />
      )}
    </section>
  );
}
