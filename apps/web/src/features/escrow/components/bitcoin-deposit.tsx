import { minimumBitcoinDepositSats } from '@covenant/domain';
import { formatDealAmount } from '@/features/trading/components/format-deal-amount.js';
import type { EscrowLegWithSigning } from '../api/escrow-leg-signing.js';
import { bitcoinPaymentUri } from '../lib/bitcoin-payment-uri.js';
import { CopyButton } from './copy-button.js';
import { DepositQrCode } from './deposit-qr-code.js';
import { tokenAmount } from './token-amount.js';

/**
 * Where the depositor sends a Bitcoin leg: the leg's own P2WSH address, and a QR code of the BIP 21
 * payment request for what is still missing (the amount less what is received or already pending),
 * so a phone wallet fills in address and amount. A payment below 0.0001 BTC is not counted (the
 * server ignores such outputs), so a smaller shortfall asks for 0.0001 BTC: the excess comes back at
 * settlement.
 */
export function BitcoinDeposit({ leg }: { leg: EscrowLegWithSigning }) {
  const seen = BigInt(leg.received) + BigInt(leg.pending);
  const missing = BigInt(leg.amount) - seen;
  const toSend =
    missing <= 0n ? 0n : missing < minimumBitcoinDepositSats ? minimumBitcoinDepositSats : missing;
  const minimum = formatDealAmount(minimumBitcoinDepositSats.toString(), leg.symbol);
  const uri = bitcoinPaymentUri(leg.deposit_address, toSend);
  const amount = formatDealAmount(toSend.toString(), leg.symbol);
  return (
    <div className="flex flex-col gap-4 sm:flex-row">
      <DepositQrCode address={leg.deposit_address} value={uri} />
      <div className="min-w-0 flex-1 space-y-2">
        <p className="text-muted text-xs uppercase tracking-wide">Deposit address</p>
        <code className="block break-all font-mono text-sm">{leg.deposit_address}</code>
        <p className="text-muted text-xs">
          {seen === 0n
            ? `Send exactly ${amount} on Bitcoin to this address, from any wallet.`
            : `Send the ${amount} still missing on Bitcoin to this address, from any wallet.`}{' '}
          The QR code holds the payment request with the amount. A payment below {minimum} is not counted
          {missing > 0n && missing < minimumBitcoinDepositSats
            ? `, so send ${minimum}: what is over comes back to you at settlement.`
            : '.'}
        </p>
        <p className="text-muted text-xs uppercase tracking-wide">Payment request (BIP 21)</p>
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
