import { isTokenSymbol, type TravelPayer, type TypedDataJson, tokenDecimals } from '@covenant/domain';
import { base64 } from '@scure/base';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import {
  isSolanaCustody,
  legWithSigning,
  readSolanaSummary,
} from '@/features/escrow/api/escrow-leg-signing.js';
import { useChains } from '@/features/escrow/api/get-chains.js';
import { useEscrow } from '@/features/escrow/api/get-escrow.js';
import { type SolanaPayoutExpectation, signSolanaPayout } from '@/features/escrow/lib/check-solana-payout.js';
import { checkTravelSolanaMessage, checkTravelTypedData } from '@/features/escrow/lib/check-travel-payout.js';
import { UnlockEscrowKey } from '@/features/escrow-key/components/unlock-escrow-key.js';
import { signEscrowTypedData } from '@/features/escrow-key/lib/escrow-seed.js';
import { solanaEscrowKeyFromSeed } from '@/features/escrow-key/lib/solana-escrow-key.js';
import { formatDealAmount } from '@/features/trading/components/format-deal-amount.js';
import { useApproveTravel } from '../api/travel-approve.js';
import type { TravelItem } from '../api/travel-list.js';

type Party = 'buyer' | 'seller';

/**
 * A party's approval of a travel quote, paid from the stable leg's escrow once both approved. The
 * seller approves with a click; the buyer, who deposited the leg, signs the partial payout in this
 * browser with the escrow key, after the page checked it pays exactly the quote to its provider and
 * nothing else (on Ethereum the escrow's TRAVEL action, on Solana a transfer leaving the leg open).
 */
export function TravelApproval({
  dealId,
  item,
  viewer,
  travelPaidBy,
}: {
  dealId: string;
  item: TravelItem;
  viewer: Party;
  travelPaidBy: TravelPayer;
}) {
  const approve = useApproveTravel(dealId);
  const escrow = useEscrow(dealId, viewer === 'buyer');
  const chains = useChains(viewer === 'buyer');
  const [signError, setSignError] = useState<string | null>(null);
  const quote = item.quote;
  if (item.status !== 'quoted' || !quote) return null;
  const titleId = `travel-approval-${item.id}`;
  const price = formatDealAmount(quote.amount, quote.symbol);
  const share =
    travelPaidBy === 'seller'
      ? 'The seller bears it: it comes off the seller’s stablecoin payout.'
      : travelPaidBy === 'buyer'
        ? 'The buyer bears it: the buyer deposits it on top of the stable amount.'
        : 'Buyer and seller share it half and half.';

  if (item.approved_by.includes(viewer)) {
    return (
      <p className="text-muted text-sm" role="status">
        You approved this quote.{' '}
        {item.approved_by.length < 2
          ? 'It is paid once the other party approves it too.'
          : 'It is being paid.'}
      </p>
    );
  }

  const send = (signature: string | null) =>
    approve.mutate({ itemId: item.id, signature }, { onSuccess: () => toast.success('Quote approved') });

  const leg = escrow.data?.legs.find((entry) => entry.leg === 'stable');
  const payload = readPayload(item.signing_payload);
  let refusal: string | null = null;
  // What the Solana payment was checked against here; signing checks the message against it again.
  let solanaExpected: SolanaPayoutExpectation | null = null;
  if (viewer === 'buyer') {
    if (!payload) refusal = 'The payment is being prepared. It appears here in a moment.';
    else if (!leg || !chains.data) refusal = 'The escrow is loading.';
    else {
      try {
        if (payload.format === 'eip712') {
          const chainId = chains.data?.find((entry) => entry.chain === leg.chain)?.chain_id;
          checkTravelTypedData(payload.data as TypedDataJson, quote, leg.deposit_address, chainId);
        } else {
          const signing = legWithSigning({ ...leg, signing_payload: payload as never });
          const summary = readSolanaSummary((payload as { summary?: unknown }).summary);
          if (!summary || !isSolanaCustody(signing.custody) || !isTokenSymbol(leg.symbol)) {
            throw new Error('This payment comes without what is needed to check it, so it was not signed.');
          }
          const decimals = tokenDecimals[leg.symbol];
          checkTravelSolanaMessage(
            base64.decode(String(payload.data)),
            summary,
            signing.custody,
            decimals,
            quote,
            leg.deposit_address,
          );
          solanaExpected = {
            summary,
            custody: signing.custody,
            decimals,
            received: '0',
            partial: true,
            depositAddress: leg.deposit_address,
            agreed: null,
          };
        }
      } catch (error) {
        refusal = error instanceof Error ? error.message : String(error);
      }
    }
  }

  const sign = async (mnemonic: string) => {
    setSignError(null);
    approve.reset();
    if (!payload) return;
    try {
      if (payload.format === 'eip712') {
        send(await signEscrowTypedData(mnemonic, payload.data as TypedDataJson));
      } else if (solanaExpected) {
        send(signSolanaPayout(String(payload.data), solanaExpected, solanaEscrowKeyFromSeed(mnemonic)));
      }
    } catch {
      setSignError('Your escrow key could not sign this payment. Nothing was sent.');
    }
  };

  const problem = signError ?? (approve.isError ? approve.error.message : null);
  return (
    <section aria-labelledby={titleId} className="space-y-3 rounded-lg border border-primary/40 p-3">
      <h4 id={titleId} className="font-medium text-sm">
        Approve this quote
      </h4>
      <p className="text-muted text-sm">
        {price} from the escrow’s stablecoin leg to {quote.provider} at{' '}
        <span className="break-all font-mono">{quote.payee_address}</span>, without fee. {share}
      </p>
      {refusal ? (
        <p role="alert" className="text-destructive text-sm">
          {refusal}
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      ) : null}
      {approve.isPending ? (
        <p role="status" className="text-muted text-sm">
          Sending your approval…
        </p>
      ) : viewer === 'seller' ? (
        <Button type="button" onClick={() => send(null)}>
          Approve quote
        </Button>
      ) : refusal ? null : (
        <UnlockEscrowKey
          onUnlocked={(mnemonic: string) => void sign(mnemonic)}
          submitLabel="Sign and approve"
        />
      )}
    </section>
  );
}

/** The item's signing payload when it has the shape of one (`{format, data, ...}`), else null. */
function readPayload(value: unknown): { format: string; data: unknown; summary?: unknown } | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  return typeof record.format === 'string' ? { ...record, format: record.format, data: record.data } : null;
}
