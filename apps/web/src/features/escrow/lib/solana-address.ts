import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58 } from '@scure/base';

/** The programs a Solana escrow payout may call, and the native (wrapped SOL) mint. */
export const systemProgram = '11111111111111111111111111111111';
export const tokenProgram = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const associatedTokenProgram = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const nativeMint = 'So11111111111111111111111111111111111111112';

/** The 32 bytes of a base58 Solana address; throws when it is not one. */
export function addressBytes(address: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(address);
  } catch {
    throw new Error(`${address} is not a Solana address.`);
  }
  if (bytes.length !== 32) throw new Error(`${address} is not a Solana address.`);
  return bytes;
}

export function isSolanaAddress(address: string): boolean {
  try {
    addressBytes(address);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether 32 bytes are a point of the ed25519 curve, as the runtime decides it (a compressed
 * Edwards y that decompresses): program derived addresses are exactly the hashes that are not.
 */
export function isOnCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes, true);
    return true;
  } catch {
    return false;
  }
}

const pdaMarker = new TextEncoder().encode('ProgramDerivedAddress');

/**
 * `find_program_address`: the first bump from 255 down whose SHA-256 of
 * seeds ‖ bump ‖ program id ‖ "ProgramDerivedAddress" is off the curve.
 */
export function findProgramAddress(seeds: readonly Uint8Array[], programId: string): [string, number] {
  const program = addressBytes(programId);
  for (let bump = 255; bump >= 0; bump--) {
    const parts = [...seeds, Uint8Array.of(bump), program, pdaMarker];
    const input = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      input.set(part, offset);
      offset += part.length;
    }
    const hash = sha256(input);
    if (!isOnCurve(hash)) return [base58.encode(hash), bump];
  }
  throw new Error('No program address found for these seeds.');
}

/** The associated token account of `owner` for `mint` (SPL Token program): where a wallet holds that token. */
export function associatedTokenAddress(owner: string, mint: string): string {
  return findProgramAddress(
    [addressBytes(owner), addressBytes(tokenProgram), addressBytes(mint)],
    associatedTokenProgram,
  )[0];
}
