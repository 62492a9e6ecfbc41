import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';

const HARDENED_OFFSET = 0x80000000;
const HARDENED_SEGMENT = /^(\d+)'$/;

/** A SLIP-0010 ed25519 node: the 32-byte private key (the ed25519 seed) and its chain code. */
export interface Slip10Node {
  privateKey: Uint8Array;
  chainCode: Uint8Array;
}

/** The master node of `seed` (SLIP-0010: HMAC-SHA512 keyed with "ed25519 seed"). */
export function slip10MasterNode(seed: Uint8Array): Slip10Node {
  const digest = hmac(sha512, utf8ToBytes('ed25519 seed'), seed);
  return { privateKey: digest.slice(0, 32), chainCode: digest.slice(32) };
}

/** The hardened child `index` (0 ≤ index < 2^31) of a node; ed25519 has no other kind. */
export function slip10HardenedChild(parent: Slip10Node, index: number): Slip10Node {
  if (!Number.isInteger(index) || index < 0 || index >= HARDENED_OFFSET) {
    throw new Error(`a SLIP-0010 ed25519 index is an integer from 0 to ${HARDENED_OFFSET - 1}, not ${index}`);
  }
  const serializedIndex = new Uint8Array(4);
  new DataView(serializedIndex.buffer).setUint32(0, index + HARDENED_OFFSET);
  const digest = hmac(
    sha512,
    parent.chainCode,
    concatBytes(Uint8Array.of(0), parent.privateKey, serializedIndex),
  );
  return { privateKey: digest.slice(0, 32), chainCode: digest.slice(32) };
}

/**
 * The node at `path` (`m` or `m/44'/501'/0'/0'`: every segment hardened, as SLIP-0010 requires for
 * ed25519) of `seed`.
 */
export function slip10DerivePath(seed: Uint8Array, path: string): Slip10Node {
  const [root, ...segments] = path.split('/');
  if (root !== 'm') throw new Error(`a derivation path starts with m, not ${path}`);
  return segments.reduce((node, segment) => {
    const match = HARDENED_SEGMENT.exec(segment);
    if (!match) throw new Error(`every segment of an ed25519 path is hardened (${segment} in ${path})`);
    return slip10HardenedChild(node, Number(match[1]));
  }, slip10MasterNode(seed));
}
