import { isTokenSymbol, tokenDecimals } from '@covenant/domain';
import { formatDealAmount } from '@/features/trading/components/format-deal-amount.js';
import type { EscrowLegWithSigning, SolanaLegCustody } from '../api/escrow-leg-signing.js';
import { checkSolanaCustody } from '../lib/check-solana-custody.js';
import { nativeMint } from '../lib/solana-address.js';
import { solanaPayUri } from '../lib/solana-pay-uri.js';
import { CopyButton } from './copy-button.js';
import { DepositQrCode } from './deposit-qr-code.js';
import { tokenAmount } from './token-amount.js';

const legNames = { asset: 'asset leg', stable: 'stablecoin leg' } as const;

/**
 * Where the depositor sends a Solana leg: the leg's token account, and a QR code of the Solana Pay
 * request for what is still missing (the amount less what is received or already pending), so a
 * phone wallet fills in recipient, token and amount. A token request names the multisig, which
 * wallets pay through its token account, the deposit address. When the custody does not check
 * out, no request is offered.
 */
export function SolanaDeposit({
  leg,
  custody,
  dealId,
  expectedMint,
}: {
  leg: EscrowLegWithSigning;
  custody: SolanaLegCustody;
  dealId: string;
  expectedMint?: string | null;
}) {
  const check = checkSolanaCustody(leg.deposit_address, custody, expectedMint);
  if (!check.ok || !isTokenSymbol(leg.symbol)) {
    return (
      <p role="alert" className="text-destructive text-sm">
        {check.ok ? `This page does not know the token ${leg.symbol}.` : check.reason} Do not deposit to this
        leg; contact support.
      </p>
    );
  }
  const seen = BigInt(leg.received) + BigInt(leg.pending);
  const missing = BigInt(leg.amount) - seen;
  const toSend = missing > 0n ? missing : 0n;
  const sol = custody.mint === nativeMint;
  const uri = solanaPayUri({
    recipient: custody.solana_pay_recipient,
    baseUnits: toSend,
    decimals: tokenDecimals[leg.symbol],
    mint: sol ? null : custody.mint,
    label: 'Covenant',
    message: `Deal ${dealId}, ${legNames[leg.leg]}`,
  });
  const amount = formatDealAmount(toSend.toString(), leg.symbol);
  return (
    <div className="flex flex-col gap-4 sm:flex-row">
      <DepositQrCode address={leg.deposit_address} value={uri} />
      <div className="min-w-0 flex-1 space-y-2">
        <p className="text-muted text-xs uppercase tracking-wide">Deposit address</p>
        <code className="block break-all font-mono text-sm">{leg.deposit_address}</code>
        <p className="text-muted text-xs">
          {seen === 0n
            ? `Send exactly ${amount} on Solana to this address, from any wallet.`
            : `Send the ${amount} still missing on Solana to this address, from any wallet.`}{' '}
          The QR code holds the payment request with the amount.
        </p>
        {sol ? null : (
          <p className="text-muted text-xs">
            If your wallet or exchange asks for the owner’s address instead, give{' '}
            <span className="break-all font-mono">{custody.multisig}</span>: the {leg.symbol} still lands in
            the deposit address.
          </p>
        )}
        <p className="text-muted text-xs uppercase tracking-wide">Payment request (Solana Pay)</p>
        <code className="block break-all font-mono text-xs">{uri}</code>
        <div className="flex flex-wrap gap-2">
          <CopyButton text={leg.deposit_address} label="Copy address" copied="Deposit address copied" />
          <CopyButton
            text={tokenAmount(toSend.toString(), leg.symbol)}
            label="Copy amount"
            copied="Amount copied"
          />
          <CopyButton text={uri} label="Copy payment request" copied="Payment request copied" />
        </div>
      </div>
    </div>
  );
}
