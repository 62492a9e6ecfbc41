import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';

export type SolanaSignerCheck = { ok: true; address: string } | { ok: false; reason: string };

/**
 * Whether `address` can be a Solana escrow signer: base58 of a 32-byte ed25519 public key that is a
 * point on the curve. A program-derived address (off the curve) has no private key, so naming it
 * as one of a 2-of-3 multisig's signers would leave the escrow to the two other keys.
 */
export function validateSolanaSigner(address: string): SolanaSignerCheck {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(address);
  } catch {
    return { ok: false, reason: 'A Solana address is written in base58 (no 0, O, I or l)' };
  }
  if (bytes.length !== 32) {
    return { ok: false, reason: `A Solana public key is 32 bytes; this one has ${bytes.length}` };
  }
  try {
    ed25519.Point.fromBytes(bytes);
  } catch {
    return {
      ok: false,
      reason:
        'This address is not on the ed25519 curve (a program-derived address): no one holds its key, so it cannot sign',
    };
  }
  return { ok: true, address };
}
