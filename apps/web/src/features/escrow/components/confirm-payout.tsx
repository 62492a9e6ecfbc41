import type { DealWithHistory, EscrowStatusLegView, TypedDataJson } from '@covenant/domain';
import { useState } from 'react';
import { toast } from 'sonner';
import { UnlockEscrowKey } from '@/features/escrow-key/components/unlock-escrow-key.js';
import { signEscrowTypedData } from '@/features/escrow-key/lib/escrow-seed.js';
import { useReleaseEscrow } from '../api/release-escrow.js';
import { approvalSentence } from './approval-sentence.js';
import type { EscrowViewer } from './escrow-viewer.js';
import { PayoutTransfers } from './payout-transfers.js';

/**
 * The viewer's approval of one leg's payout: what exactly it pays (each transfer, the fee included),
 * then the escrow password to unlock the seed in this browser, which signs the server's EIP-712
 * payload locally and sends only the signature. The same flow confirms a refund of a cancelled deal.
 */
export function ConfirmPayout({
  deal,
  viewer,
  leg,
  typedData,
  owed,
}: {
  deal: DealWithHistory;
  viewer: EscrowViewer;
  /** The other leg has been paid out: this one is owed (`approvalSentence`). */
  owed: boolean;
  leg: EscrowStatusLegView;
  typedData: TypedDataJson;
}) {
  const release = useReleaseEscrow(deal.id);
  const [signError, setSignError] = useState<string | null>(null);
  const refund = leg.payout?.kind === 'refund';
  const label = refund ? 'Confirm refund' : 'Confirm settlement';
  const titleId = `escrow-confirm-${leg.leg}-title`;

  const confirm = async (mnemonic: string) => {
    setSignError(null);
    release.reset();
    let signature: string;
    try {
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
      {leg.payout ? (
        <PayoutTransfers deal={deal} viewer={viewer} leg={leg} transfers={leg.payout.transfers} />
      ) : null}
      {leg.signer_address ? (
        <p className="text-muted text-xs">
          Signed in this browser with your escrow key{' '}
          <span className="break-all font-mono">{leg.signer_address}</span>; your password and seed never
          leave it.
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      ) : null}
      {release.isPending ? (
        <p role="status" className="text-muted text-sm">
          Sending your confirmation…
        </p>
      ) : (
        <UnlockEscrowKey onUnlocked={(mnemonic: string) => void confirm(mnemonic)} submitLabel={label} />
      )}
    </section>
  );
}
