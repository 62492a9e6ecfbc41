import type { EscrowStatusLegView } from '@covenant/domain';
import { Button } from '@/components/ui/button.js';
import { formatDealAmount } from '@/features/trading/components/format-deal-amount.js';
import { type EscrowLegWithSigning, isBitcoinCustody, isSolanaCustody } from '../api/escrow-leg-signing.js';
import { BitcoinCustody } from './bitcoin-custody.js';
import { BitcoinDeposit } from './bitcoin-deposit.js';
import { ConfirmationsProgress } from './confirmations-progress.js';
import { CopyButton } from './copy-button.js';
import { DepositQrCode } from './deposit-qr-code.js';
import type { EscrowViewer } from './escrow-viewer.js';
import { FundingCountdown } from './funding-countdown.js';
import { legStateText } from './leg-state-text.js';
import { SolanaCustody } from './solana-custody.js';
import { SolanaDeposit } from './solana-deposit.js';
import { tokenAmount } from './token-amount.js';

const chainNames: Record<string, string> = { BTC: 'Bitcoin', ETH: 'Ethereum', SOL: 'Solana' };
const legTitles = { asset: 'Asset leg', stable: 'Stablecoin leg' } as const;

/** Until a leg is fully funded its depositor still needs the address, the amount and the clock. */
const open = new Set<EscrowStatusLegView['state']>(['awaiting_deposit', 'partially_funded']);

/**
 * One leg of the escrow while it is funded and paid out: who deposits what where, the deposit address
 * (copyable, and as a QR code), how deep the deposits are, the leg's state and the funding deadline.
 * A Bitcoin leg's code is a BIP 21 payment request, a Solana leg's a Solana Pay request, and their
 * custody (keys and script, or multisig and accounts) is shown.
 * On the devnet the depositor may fund it from the devnet wallet.
 */
export function EscrowLegCard({
  leg,
  viewer,
  dealId,
  expectedMint,
  fundingOpen,
  devFund,
}: {
  leg: EscrowLegWithSigning;
  viewer: EscrowViewer;
  /** Named in a Solana Pay request's message. */
  dealId: string;
  /** The mint `GET /chains` lists for a Solana leg's token (null: SOL), when it lists one. */
  expectedMint?: string | null | undefined;
  /** False once the escrow is past funding (refunding a cancelled deal): no deposit is invited then. */
  fundingOpen: boolean;
  /** Present only on the devnet, for the viewer's own leg. */
  devFund?: { onFund: () => void; pending: boolean; error: string | null };
}) {
  const mine = leg.depositor === viewer.party;
  const chain = chainNames[leg.chain] ?? leg.chain;
  const titleId = `escrow-leg-${leg.leg}-title`;
  const awaiting = fundingOpen && open.has(leg.state);
  const pending = BigInt(leg.pending) > 0n;
  const bitcoin = leg.chain === 'BTC';
  const solanaCustody = leg.chain === 'SOL' && isSolanaCustody(leg.custody) ? leg.custody : null;
  return (
    <section aria-labelledby={titleId} className="space-y-4 rounded-lg border border-border p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={titleId} className="font-medium">
          {legTitles[leg.leg]}: {mine ? 'You deposit' : `${viewer.counterparty} deposits`}
        </h3>
        <p className="font-medium text-sm">{legStateText(leg)}</p>
      </div>
      <p>
        <span className="font-semibold text-lg">{formatDealAmount(leg.amount, leg.symbol)}</span>
        <span className="text-muted text-sm"> on {chain}</span>
      </p>
      {awaiting && bitcoin ? (
        <BitcoinDeposit leg={leg} />
      ) : awaiting && solanaCustody ? (
        <SolanaDeposit leg={leg} custody={solanaCustody} dealId={dealId} expectedMint={expectedMint} />
      ) : awaiting ? (
        <div className="flex flex-col gap-4 sm:flex-row">
          <DepositQrCode address={leg.deposit_address} />
          <div className="min-w-0 flex-1 space-y-2">
            <p className="text-muted text-xs uppercase tracking-wide">Deposit address</p>
            <code className="block break-all font-mono text-sm">{leg.deposit_address}</code>
            <p className="text-muted text-xs">
              Send exactly {formatDealAmount(leg.amount, leg.symbol)} on {chain} to this address, from any
              wallet.
            </p>
            <div className="flex flex-wrap gap-2">
              <CopyButton text={leg.deposit_address} label="Copy address" copied="Deposit address copied" />
              <CopyButton
                text={tokenAmount(leg.amount, leg.symbol)}
                label="Copy amount"
                copied="Amount copied"
              />
            </div>
          </div>
        </div>
      ) : (
        <p className="break-all font-mono text-muted text-xs">{leg.deposit_address}</p>
      )}
      <ConfirmationsProgress confirmations={leg.confirmations} required={leg.required_confirmations} />
      {pending ? (
        <p className="text-muted text-sm">
          {bitcoin
            ? `${formatDealAmount(leg.pending, leg.symbol)} pending: seen in the mempool or in a block, waiting for confirmations.`
            : `${formatDealAmount(leg.pending, leg.symbol)} seen, waiting for confirmations.`}
        </p>
      ) : null}
      {bitcoin && isBitcoinCustody(leg.custody) ? <BitcoinCustody leg={leg} custody={leg.custody} /> : null}
      {solanaCustody ? <SolanaCustody leg={leg} custody={solanaCustody} expectedMint={expectedMint} /> : null}
      {awaiting ? <FundingCountdown deadline={leg.deadline} /> : null}
      {devFund && awaiting ? (
        <div className="space-y-2">
          <Button variant="outline" size="sm" disabled={devFund.pending} onClick={devFund.onFund}>
            {devFund.pending ? 'Funding…' : 'Fund from devnet wallet'}
          </Button>
          {devFund.error ? (
            <p role="alert" className="text-destructive text-sm">
              {devFund.error}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
