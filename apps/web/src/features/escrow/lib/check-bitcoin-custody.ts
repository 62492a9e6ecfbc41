import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, hex } from '@scure/base';
import { OutScript } from '@scure/btc-signer';
import type { LegCustody } from '../api/escrow-leg-signing.js';

/**
 * Recomputes a Bitcoin leg's deposit address from its custody, as anyone can: the witness script
 * must be a 2-of-3 multisig over exactly the buyer's, the seller's and the platform's keys, and the
 * address its P2WSH (segwit v0 over the script's SHA-256). Answers why not when it is not.
 */
export function checkBitcoinCustody(
  depositAddress: string,
  custody: LegCustody,
): { ok: true } | { ok: false; reason: string } {
  const scriptBytes = readHex(custody.witness_script);
  const script = scriptBytes ? readScript(scriptBytes) : null;
  if (!scriptBytes || !script) return { ok: false, reason: 'The witness script cannot be read.' };
  const keys = Object.values(custody.public_keys).map((key) => key.toLowerCase());
  if (
    script.type !== 'ms' ||
    script.m !== 2 ||
    script.pubkeys.length !== 3 ||
    !script.pubkeys.every((key) => keys.includes(hex.encode(key))) ||
    new Set(keys).size !== 3
  ) {
    return { ok: false, reason: 'The witness script is not a 2-of-3 multisig over these three keys.' };
  }
  const decoded = bech32.decodeUnsafe(depositAddress.toLowerCase());
  const [version, ...words] = decoded?.words ?? [];
  const program = words.length > 0 ? bech32.fromWordsUnsafe(words) : undefined;
  if (version !== 0 || !program || hex.encode(program) !== hex.encode(sha256(scriptBytes))) {
    return { ok: false, reason: 'The deposit address is not the P2WSH address of this witness script.' };
  }
  return { ok: true };
}

function readHex(text: string): Uint8Array | null {
  try {
    return hex.decode(text.toLowerCase());
  } catch {
    return null;
  }
}

function readScript(bytes: Uint8Array) {
  try {
    return OutScript.decode(bytes);
  } catch {
    return null;
  }
}
