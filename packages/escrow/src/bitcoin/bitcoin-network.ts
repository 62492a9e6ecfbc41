import { NETWORK, TEST_NETWORK } from '@scure/btc-signer';

export type BitcoinNetworkName = 'mainnet' | 'testnet' | 'signet' | 'regtest';

/** Address encodings of a network, in @scure/btc-signer's shape. */
export interface BitcoinAddressFormat {
  bech32: string;
  pubKeyHash: number;
  scriptHash: number;
  wif: number;
}

/**
 * Address encodings per network. `regtest` is bcoin's (the local node): bech32 `rb`, base58
 * versions 0x3c / 0x26. Bitcoin Core's regtest uses `bcrt` and 0x6f / 0xc4: pass
 * `BITCOIN_CORE_REGTEST` as `addressFormat` to talk to one.
 */
export const BITCOIN_ADDRESS_FORMATS: Record<BitcoinNetworkName, BitcoinAddressFormat> = {
  mainnet: NETWORK,
  testnet: TEST_NETWORK,
  signet: TEST_NETWORK,
  regtest: { bech32: 'rb', pubKeyHash: 0x3c, scriptHash: 0x26, wif: 0x5a },
};

export const BITCOIN_CORE_REGTEST: BitcoinAddressFormat = {
  bech32: 'bcrt',
  pubKeyHash: 0x6f,
  scriptHash: 0xc4,
  wif: 0xef,
};
