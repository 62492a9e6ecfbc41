import { secp256k1 } from '@noble/curves/secp256k1.js';

export type PublicKeyCheck = { ok: true; publicKey: string } | { ok: false; reason: string };

/**
 * Whether `publicKey` is a Bitcoin escrow signer: a 33-byte compressed secp256k1 point as 66 hex
 * digits (DESIGN §6). The point is checked on the curve, since a key nobody can sign for would lock
 * a 2-of-3 escrow to the two other keys. The accepted key comes back in lower case, as it is stored.
 */
export function validateBitcoinPublicKey(publicKey: string): PublicKeyCheck {
  if (!/^[0-9a-fA-F]*$/.test(publicKey)) {
    return { ok: false, reason: 'A public key is written in hexadecimal digits only' };
  }
  if (publicKey.length === 130 && publicKey.startsWith('04')) {
    return {
      ok: false,
      reason:
        'This is an uncompressed public key: send the 33-byte compressed form (66 hex digits, 02 or 03 first)',
    };
  }
  if (publicKey.length !== 66) {
    return {
      ok: false,
      reason: `A compressed public key is 66 hex digits (33 bytes); this one has ${publicKey.length}`,
    };
  }
  const lower = publicKey.toLowerCase();
  if (!lower.startsWith('02') && !lower.startsWith('03')) {
    return { ok: false, reason: 'A compressed public key starts with 02 or 03' };
  }
  try {
    secp256k1.Point.fromHex(lower);
  } catch {
    return { ok: false, reason: 'This is not a point on the secp256k1 curve, so no one could sign for it' };
  }
  return { ok: true, publicKey: lower };
}
