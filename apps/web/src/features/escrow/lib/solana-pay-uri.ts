import { formatAmount } from '@covenant/domain';

/**
 * The Solana Pay transfer request (`solana:<recipient>?amount=…&spl-token=<mint>&label=…&message=…`)
 * for `baseUnits` of a token with `decimals`: the amount in whole tokens as exact decimal text from
 * the integer base units, never through a float; `spl-token` only for a token (null mint: SOL).
 * Without an amount (nothing left to send) the request leaves it for the wallet to ask.
 */
export function solanaPayUri({
  recipient,
  baseUnits,
  decimals,
  mint,
  label,
  message,
}: {
  recipient: string;
  baseUnits: bigint;
  decimals: number;
  mint: string | null;
  label: string;
  message: string;
}): string {
  const query: string[] = [];
  if (baseUnits > 0n) query.push(`amount=${formatAmount(baseUnits, decimals)}`);
  if (mint) query.push(`spl-token=${mint}`);
  query.push(`label=${encodeURIComponent(label)}`, `message=${encodeURIComponent(message)}`);
  return `solana:${recipient}?${query.join('&')}`;
}
