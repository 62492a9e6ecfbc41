import { ed25519 } from '@noble/curves/ed25519.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { slip10DerivePath } from './slip10-ed25519.js';

/** An ed25519 key as the adapter uses it: its base58 address and a signature of message bytes. */
export interface SolanaKeySigner {
  readonly address: string;
  sign(message: Uint8Array): Promise<Uint8Array>;
}

/**
 * The platform's Solana keys, so a KMS or HSM can stand behind them: the multisig signer of each
 * leg, the relayer (fee payer, nonce authority, rent payer) and the keypairs of the accounts the
 * platform creates for a leg, named by a label (see solana-leg-accounts.ts).
 */
export interface SolanaPlatformKey {
  legSigner(keyIndex: number): Promise<SolanaKeySigner>;
  relayer(): Promise<SolanaKeySigner>;
  legAccount(label: string): Promise<SolanaKeySigner>;
}

/** The SLIP-0010 path of the platform's multisig signer for the leg with `keyIndex`. */
export const solanaLegKeyPath = (keyIndex: number) => `m/44'/501'/${keyIndex}'/0'`;
/** The relayer's path: the last hardened account, which no leg index reaches. */
export const SOLANA_RELAYER_KEY_PATH = "m/44'/501'/2147483647'/0'";

const MAX_LEG_KEY_INDEX = 0x7ffffffe;

/** The base58 address of an ed25519 private key (a 32-byte seed). */
export function solanaAddressOf(privateKey: Uint8Array): string {
  return base58.encode(ed25519.getPublicKey(privateKey));
}

function signerOf(privateKey: Uint8Array): SolanaKeySigner {
  return {
    address: solanaAddressOf(privateKey),
    sign: async (message) => ed25519.sign(message, privateKey),
  };
}

/**
 * The 32-byte private key of a leg account: HMAC-SHA512(key = the platform seed,
 * data = `covenant/solana/${label}`), first 32 bytes.
 */
export function solanaLegAccountPrivateKey(seed: Uint8Array, label: string): Uint8Array {
  return hmac(sha512, seed, utf8ToBytes(`covenant/solana/${label}`)).slice(0, 32);
}

/**
 * The platform's Solana keys from its 32-byte seed held in memory (dev, tests; production puts a
 * KMS behind the interface): SLIP-0010 ed25519, hardened only, as Solana wallets derive theirs.
 */
export function solanaPlatformKeyFromSeed(seed: Uint8Array): SolanaPlatformKey {
  if (seed.length !== 32) throw new Error(`the platform's Solana seed is 32 bytes, not ${seed.length}`);
  const relayer = signerOf(slip10DerivePath(seed, SOLANA_RELAYER_KEY_PATH).privateKey);
  return {
    async legSigner(keyIndex) {
      if (!Number.isInteger(keyIndex) || keyIndex < 0 || keyIndex > MAX_LEG_KEY_INDEX) {
        throw new Error(`a leg key index is an integer from 0 to ${MAX_LEG_KEY_INDEX}, not ${keyIndex}`);
      }
      return signerOf(slip10DerivePath(seed, solanaLegKeyPath(keyIndex)).privateKey);
    },
    relayer: async () => relayer,
    legAccount: async (label) => signerOf(solanaLegAccountPrivateKey(seed, label)),
  };
}
