import type { Hex } from 'viem';

/** The order of secp256k1's group, and half of it: the escrow contract's ECDSA takes only s ≤ n/2. */
const curveOrder = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const halfOrder = curveOrder / 2n;

/**
 * A 65-byte ECDSA signature (r ‖ s ‖ v) in the one form the escrow contract's OpenZeppelin
 * `ECDSA.recover` accepts: v 27 or 28 and a low s. Libraries also emit v as 0/1, and anyone can turn a
 * signature into its high-s twin; both recover the same signer off-chain, so an approval stored as
 * sent would be counted yet revert on-chain, stalling the settlement. The twin is mapped back (s to
 * n − s, the parity flipped): the same approval of the same payout. Null when it is not such a
 * signature at all (length, v, or r and s out of range).
 */
export function canonicalSignature(signature: string): Hex | null {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return null;
  const r = BigInt(`0x${signature.slice(2, 66)}`);
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130), 16);
  const parity = v === 0 || v === 27 ? 0 : v === 1 || v === 28 ? 1 : null;
  if (parity === null || r === 0n || r >= curveOrder || s === 0n || s >= curveOrder) return null;
  const [lowS, lowParity] = s > halfOrder ? [curveOrder - s, 1 - parity] : [s, parity];
  const word = (value: bigint) => value.toString(16).padStart(64, '0');
  return `0x${word(r)}${word(lowS)}${lowParity === 0 ? '1b' : '1c'}`;
}
