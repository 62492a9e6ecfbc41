import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import type { UnsignedPayout } from '../chain-adapter.js';
import type { ApprovalCheck } from '../escrow-chain-adapter.js';
import { decodeSignature, type PayoutMessage, payoutMessage } from './solana-payout.js';

/** Whether `signature` is `signer`'s ed25519 signature of the message bytes (strict: no malleable encodings). */
export function signs(message: Uint8Array, signature: Uint8Array, signer: string): boolean {
  try {
    return ed25519.verify(signature, message, base58.decode(signer), { zip215: false });
  } catch {
    return false;
  }
}

/** Which of the message's signers (other than the fee payer) made `signature`, if any. */
export function signerOf(message: PayoutMessage, signature: Uint8Array): string | null {
  return message.signers.slice(1).find((signer) => signs(message.bytes, signature, signer)) ?? null;
}

/**
 * Checks that `approval` (base58, or hex with an optional 0x) is `expectedSigner`'s ed25519
 * signature of exactly the payout's message bytes, and that the message names that key as one of
 * its signers. The signature kept is base58, as the wire transaction carries it.
 */
export function verifySolanaApproval(
  payout: UnsignedPayout,
  approval: string,
  expectedSigner: string,
): ApprovalCheck {
  const message = payoutMessage(payout);
  const signature = decodeSignature(approval);
  if (!signature) {
    return { valid: false, signer: null, reason: 'not an ed25519 signature (64 bytes in base58 or hex)' };
  }
  if (!message.signers.slice(1).includes(expectedSigner)) {
    return {
      valid: false,
      signer: signerOf(message, signature),
      reason: `${expectedSigner} is not a signer of this payout's message (it is to be signed by ${message.signers.slice(1).join(' and ')})`,
    };
  }
  if (!signs(message.bytes, signature, expectedSigner)) {
    const other = signerOf(message, signature);
    return {
      valid: false,
      signer: other,
      reason: other
        ? `signed by ${other}, not ${expectedSigner}`
        : `not ${expectedSigner}'s signature of this payout's message (another key or another message)`,
    };
  }
  return { valid: true, signature: base58.encode(signature) };
}
