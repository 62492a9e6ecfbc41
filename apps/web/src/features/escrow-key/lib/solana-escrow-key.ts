import { ed25519 } from '@noble/curves/ed25519.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { base58 } from '@scure/base';
import { mnemonicToSeedSync } from '@scure/bip39';
import { normalizeEscrowSeed } from './escrow-seed.js';

/**
 * The path of the seed's Solana escrow key: the first account, as Phantom and Solflare derive it
 * (SLIP-0010 ed25519, every level hardened), so the key can be found again from the backup phrase
 * alone. Solana's test clusters use the same coin type, so the path does not depend on the network.
 */
export const solanaEscrowKeyPath = "m/44'/501'/0'/0'";

const hardened = 0x8000_0000;

/** One node of a SLIP-0010 ed25519 tree: its 32-byte private key and chain code. */
export interface Slip10Node {
  privateKey: Uint8Array;
  chainCode: Uint8Array;
}

/**
 * SLIP-0010 key derivation for ed25519 from a BIP-39 (or any) seed along `path` (`m/…`). ed25519
 * has only hardened children: a level written without `'` (or `H`) is refused, not silently hardened.
 */
export function slip10Ed25519(seed: Uint8Array, path: string): Slip10Node {
  const levels = path.split('/');
  if (levels[0] !== 'm') throw new Error(`Not a derivation path: ${path}`);
  const master = hmac(sha512, new TextEncoder().encode('ed25519 seed'), seed);
  let node: Slip10Node = { privateKey: master.slice(0, 32), chainCode: master.slice(32) };
  for (const level of levels.slice(1)) {
    const match = /^(\d+)['hH]$/.exec(level);
    const index = match ? Number(match[1]) : Number.NaN;
    if (!Number.isSafeInteger(index) || index >= hardened) {
      throw new Error(`ed25519 derives only hardened levels below 2^31: ${level} in ${path}`);
    }
    // data = 0x00 || private key || ser32(index + 2^31)
    const data = new Uint8Array(37);
    data.set(node.privateKey, 1);
    new DataView(data.buffer).setUint32(33, index + hardened, false);
    const child = hmac(sha512, node.chainCode, data);
    node = { privateKey: child.slice(0, 32), chainCode: child.slice(32) };
  }
  return node;
}

export interface SolanaEscrowKey {
  /** The base58 ed25519 public key: the Solana address `wallets/connect` registers. */
  address: string;
  publicKey: Uint8Array;
  /** The 32-byte ed25519 secret (seed). Only for signing in this page; never sent anywhere. */
  privateKey: Uint8Array;
}

/** The seed's Solana escrow key (BIP-39 seed without passphrase, then SLIP-0010 at {@link solanaEscrowKeyPath}). */
export function solanaEscrowKeyFromSeed(mnemonic: string): SolanaEscrowKey {
  const seed = mnemonicToSeedSync(normalizeEscrowSeed(mnemonic));
  const { privateKey } = slip10Ed25519(seed, solanaEscrowKeyPath);
  const publicKey = ed25519.getPublicKey(privateKey);
  return { address: base58.encode(publicKey), publicKey, privateKey };
}

/** Whether the server runs Solana escrows (`GET /chains` lists SOL): only then is a Solana key registered. */
export function chainsListSolana(chains: readonly { chain: string }[]): boolean {
  return chains.some((chain) => chain.chain === 'SOL');
}
