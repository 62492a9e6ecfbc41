import { AppError } from '@covenant/domain';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hex } from '@scure/base';
import { OutScript, sortedMultisig } from '@scure/btc-signer';
import type { LegSigners } from '../types.js';
import type { BitcoinAddressFormat } from './bitcoin-network.js';

/** What makes a leg's address: the witness script, its P2WSH output script and address, the keys in script order. */
export interface MultisigCustody {
  address: string;
  witnessScript: Uint8Array;
  outputScript: Uint8Array;
  /** BIP 67 order (lexicographic on the compressed keys), as in the script. */
  sortedKeys: string[];
}

const COMPRESSED_KEY = /^0[23][0-9a-f]{64}$/;

/** Whether `publicKey` is a 33-byte compressed secp256k1 point, in lowercase hex. */
export function isCompressedPublicKey(publicKey: string): boolean {
  if (!COMPRESSED_KEY.test(publicKey)) return false;
  try {
    secp256k1.Point.fromHex(publicKey).assertValidity();
    return true;
  } catch {
    return false;
  }
}

/**
 * The leg's 2-of-3 custody: `OP_2 <k1> <k2> <k3> OP_3 OP_CHECKMULTISIG` over the three compressed
 * keys sorted per BIP 67, paid to as P2WSH (the witness v0 program is the script's SHA-256).
 * Refuses keys that are not valid compressed points, or not three distinct keys.
 */
export function multisigCustody(signers: LegSigners, addressFormat: BitcoinAddressFormat): MultisigCustody {
  for (const role of ['buyer', 'seller', 'platform'] as const) {
    if (!isCompressedPublicKey(signers[role])) {
      throw new AppError(
        'VALIDATION_FAILED',
        `The ${role}'s Bitcoin key must be a compressed secp256k1 public key (66 lowercase hex characters)`,
      );
    }
  }
  if (new Set([signers.buyer, signers.seller, signers.platform]).size !== 3) {
    throw new AppError(
      'VALIDATION_FAILED',
      'The buyer, seller and platform Bitcoin keys must be three distinct keys',
    );
  }
  const keys = [signers.buyer, signers.seller, signers.platform].map((key) => hex.decode(key));
  const payment = sortedMultisig(2, keys, true, addressFormat);
  const witnessScript = payment.witnessScript as Uint8Array;
  const decoded = OutScript.decode(witnessScript);
  if (decoded.type !== 'ms') throw new Error('the custody script is not a multisig');
  return {
    address: payment.address as string,
    witnessScript,
    outputScript: payment.script,
    sortedKeys: decoded.pubkeys.map((key) => hex.encode(key)),
  };
}

/** The keys of a 2-of-3 witness script, in script order; null when the script is not one. */
export function multisigScriptKeys(witnessScript: Uint8Array): string[] | null {
  try {
    const decoded = OutScript.decode(witnessScript);
    if (decoded.type !== 'ms' || decoded.m !== 2 || decoded.pubkeys.length !== 3) return null;
    return decoded.pubkeys.map((key) => hex.encode(key));
  } catch {
    return null;
  }
}
