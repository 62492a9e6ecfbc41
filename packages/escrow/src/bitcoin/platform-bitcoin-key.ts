import { base64, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { p2wpkh, Transaction } from '@scure/btc-signer';
import type { BitcoinAddressFormat } from './bitcoin-network.js';

/**
 * The platform's Bitcoin key as the adapter uses it, so a KMS or HSM can stand behind it: the
 * compressed public key of leg key `index` and a signature of every input of a PSBT that the key
 * can sign (SIGHASH_ALL), returned as the PSBT with its partial signatures added.
 */
export interface BitcoinPlatformKey {
  publicKey(index: number): Promise<string>;
  signPsbt(psbtBase64: string, index: number): Promise<string>;
}

/** The key that owns the fee address: it spends fee outputs (CPFP) without any party. */
export interface BitcoinFeeWalletKey {
  publicKey(): Promise<string>;
  signPsbt(psbtBase64: string): Promise<string>;
}

/** Leg keys are m/0/index of the platform root: non-hardened, so the root's xpub alone lists them. */
export const PLATFORM_LEG_KEY_PATH = 'm/0';
/** The fee wallet's key, one fixed child of the same root. */
export const PLATFORM_FEE_KEY_PATH = 'm/1/0';

const MAX_NON_HARDENED_INDEX = 0x7fffffff;

function signAll(psbtBase64: string, privateKey: Uint8Array): string {
  const tx = Transaction.fromPSBT(base64.decode(psbtBase64));
  for (let index = 0; index < tx.inputsLength; index++) {
    tx.signIdx(privateKey, index);
  }
  return base64.encode(tx.toPSBT(0));
}

function childKey(root: HDKey, path: string): HDKey {
  const key = root.derive(path);
  if (!key.privateKey || !key.publicKey) throw new Error(`no private key at ${path} of the platform root`);
  return key;
}

/** The platform's leg keys from a BIP 32 seed held in memory (dev, tests; production puts a KMS behind the interface). */
export function platformBitcoinKeyFromSeed(seed: Uint8Array): BitcoinPlatformKey {
  const root = HDKey.fromMasterSeed(seed);
  const legKey = (index: number) => {
    if (!Number.isInteger(index) || index < 0 || index > MAX_NON_HARDENED_INDEX) {
      throw new Error(`a leg key index is an integer from 0 to ${MAX_NON_HARDENED_INDEX}, not ${index}`);
    }
    return childKey(root, `${PLATFORM_LEG_KEY_PATH}/${index}`);
  };
  return {
    publicKey: async (index) => hex.encode(legKey(index).publicKey!),
    signPsbt: async (psbtBase64, index) => signAll(psbtBase64, legKey(index).privateKey!),
  };
}

/** The fee wallet from the same seed: its key at PLATFORM_FEE_KEY_PATH and its P2WPKH address (the BTC fee address). */
export function platformFeeWalletFromSeed(
  seed: Uint8Array,
  addressFormat: BitcoinAddressFormat,
): { key: BitcoinFeeWalletKey; address: string } {
  const key = childKey(HDKey.fromMasterSeed(seed), PLATFORM_FEE_KEY_PATH);
  return {
    key: {
      publicKey: async () => hex.encode(key.publicKey!),
      signPsbt: async (psbtBase64) => signAll(psbtBase64, key.privateKey!),
    },
    address: p2wpkh(key.publicKey!, addressFormat).address as string,
  };
}
