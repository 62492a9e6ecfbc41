import { formatAmount } from '@covenant/domain';

/**
 * The BIP 21 payment request for `satoshis` to `address` (`bitcoin:<address>?amount=<BTC>`), the
 * amount in BTC as exact decimal text from the integer satoshis, never through a float. Without an
 * amount (nothing left to send) the URI names only the address.
 */
export function bitcoinPaymentUri(address: string, satoshis: bigint): string {
  if (satoshis <= 0n) return `bitcoin:${address}`;
  return `bitcoin:${address}?amount=${formatAmount(satoshis, 8)}`;
}
