import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  bitcoinEscrowKeyFromSeed,
  bitcoinEscrowKeyPath,
  bitcoinKeyNetworkOfAddress,
  bitcoinKeyNetworkOfChains,
} from './bitcoin-escrow-key.js';

// The BIP-39 test phrase of 128 zero bits. Its key at m/84'/0'/0'/0/0 is BIP-84's own test vector
// (address bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu); the testnet key at m/84'/1'/0'/0/0 was
// computed apart with @scure/bip32 2.4.0 and @scure/bip39 2.4.0 (its P2WPKH address is
// tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl, the one wallets show for this phrase on testnet).
const testPhrase = `${'abandon '.repeat(11)}about`;
const mainnetKey = '0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c';
const testnetKey = '02e7ab2537b5d49e970309aae06e9e49f36ce1c9febbd44ec8e0d1cca0b4f9c319';

describe('the Bitcoin escrow key', () => {
  it("sits at m/84'/0'/0'/0/0 on mainnet and m/84'/1'/0'/0/0 on every test network", () => {
    expect(bitcoinEscrowKeyPath('mainnet')).toBe("m/84'/0'/0'/0/0");
    for (const network of ['testnet', 'signet', 'regtest'] as const) {
      expect(bitcoinEscrowKeyPath(network)).toBe("m/84'/1'/0'/0/0");
    }
  });

  it('is the key BIP-84 derives from the seed, compressed, whatever the spacing or case typed', () => {
    expect(bitcoinEscrowKeyFromSeed(testPhrase, 'mainnet').publicKey).toBe(mainnetKey);
    expect(bitcoinEscrowKeyFromSeed(`  ${testPhrase.toUpperCase()}\n`, 'mainnet').publicKey).toBe(mainnetKey);
    expect(bitcoinEscrowKeyFromSeed(testPhrase, 'regtest').publicKey).toBe(testnetKey);
    expect(bitcoinEscrowKeyFromSeed(testPhrase, 'signet').publicKey).toBe(testnetKey);
  });

  it('holds the private key of that public key', () => {
    const key = bitcoinEscrowKeyFromSeed(testPhrase, 'regtest');
    expect(hex.encode(secp256k1.getPublicKey(key.privateKey, true))).toBe(testnetKey);
  });
});

describe('bitcoinKeyNetworkOfAddress', () => {
  it.each([
    ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'mainnet'],
    ['1JaUQDVNRdhfNsVncGkXedaPSM5Gc54Hso', 'mainnet'],
    ['3GtVZYzsKF6Feikdjd4bDyPdAiyeHANY9b', 'mainnet'],
    ['tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0', 'testnet'],
    ['bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx', 'testnet'],
    ['rb1qqv9pzxqlyckngw6zf9g9whn9d3eh4qvg6d89ve', 'testnet'],
    ['my6RhGaMEf8v9yyQKqiuUYniJLfyU4gzqe', 'testnet'],
  ])('reads %s as %s', (address, network) => {
    expect(bitcoinKeyNetworkOfAddress(address)).toBe(network);
  });
});

describe('bitcoinKeyNetworkOfChains', () => {
  const eth = { chain: 'ETH', fee_address: '0xFee0000000000000000000000000000000000000' };
  it('is null when the server lists no Bitcoin', () => {
    expect(bitcoinKeyNetworkOfChains([eth])).toBeNull();
  });

  it("takes the BTC entry's network, or else its fee address's", () => {
    const btc = { chain: 'BTC', fee_address: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx' };
    expect(bitcoinKeyNetworkOfChains([eth, { ...btc, network: 'signet' }])).toBe('signet');
    expect(bitcoinKeyNetworkOfChains([eth, btc])).toBe('testnet');
    expect(
      bitcoinKeyNetworkOfChains([
        { chain: 'BTC', fee_address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu' },
      ]),
    ).toBe('mainnet');
  });
});
