import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { normalizeEscrowSeed } from './escrow-seed.js';

/** The Bitcoin networks a server runs escrows on: mainnet, or one of the test chains that share coin type 1. */
export const bitcoinKeyNetworks = ['mainnet', 'testnet', 'signet', 'regtest'] as const;
export type BitcoinKeyNetwork = (typeof bitcoinKeyNetworks)[number];

/**
 * The BIP-84 path of the seed's Bitcoin escrow key (docs/escrow.md): the first receiving key of the
 * first account, coin type 0 on mainnet and 1 on every test network (BIP-44), as common wallets
 * derive it, so the key can be found again from the backup phrase alone.
 */
export function bitcoinEscrowKeyPath(network: BitcoinKeyNetwork): string {
  return network === 'mainnet' ? "m/84'/0'/0'/0/0" : "m/84'/1'/0'/0/0";
}

export interface BitcoinEscrowKey {
  /** The 33-byte compressed public key as 66 lower-case hex digits: what `wallets/connect` registers. */
  publicKey: string;
  /** Only for signing in this page; never sent anywhere. */
  privateKey: Uint8Array;
}

/** The seed's Bitcoin escrow key on `network` (BIP-39 seed without passphrase, then BIP-32). */
export function bitcoinEscrowKeyFromSeed(mnemonic: string, network: BitcoinKeyNetwork): BitcoinEscrowKey {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(normalizeEscrowSeed(mnemonic)));
  const key = root.derive(bitcoinEscrowKeyPath(network));
  if (!key.publicKey || !key.privateKey) throw new Error('The Bitcoin escrow key could not be derived.');
  return { publicKey: hex.encode(key.publicKey), privateKey: key.privateKey };
}

/**
 * The key network of a Bitcoin address the server handed out (a deposit or fee address): mainnet
 * for `bc1…`, `1…` and `3…`, a test network otherwise. Only the coin type of the path depends on it.
 */
export function bitcoinKeyNetworkOfAddress(address: string): BitcoinKeyNetwork {
  return /^(bc1|[13])/i.test(address) ? 'mainnet' : 'testnet';
}

/**
 * The key network of the server's Bitcoin escrows, from `GET /chains`: null when it lists no BTC
 * (no Bitcoin key to register), else the entry's `network`, or when it names none, the network of
 * its fee address.
 */
export function bitcoinKeyNetworkOfChains(
  chains: readonly { chain: string; fee_address: string; network?: string }[],
): BitcoinKeyNetwork | null {
  const bitcoin = chains.find((chain) => chain.chain === 'BTC');
  if (!bitcoin) return null;
  const named = bitcoinKeyNetworks.find((network) => network === bitcoin.network);
  return named ?? bitcoinKeyNetworkOfAddress(bitcoin.fee_address);
}
