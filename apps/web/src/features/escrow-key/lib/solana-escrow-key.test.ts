import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  chainsListSolana,
  slip10Ed25519,
  solanaEscrowKeyFromSeed,
  solanaEscrowKeyPath,
} from './solana-escrow-key.js';

// SLIP-0010, "Test vector 1 for ed25519" (github.com/satoshilabs/slips/blob/master/slip-0010.md):
// chain codes, private keys, and the public keys of m and m/0H (the spec writes them with a 00 prefix).
const vectorSeed = hex.decode('000102030405060708090a0b0c0d0e0f');
const vector1 = [
  {
    path: 'm',
    chainCode: '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb',
    privateKey: '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7',
  },
  {
    path: "m/0'",
    chainCode: '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69',
    privateKey: '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
  },
  {
    path: "m/0'/1'",
    chainCode: 'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14',
    privateKey: 'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2',
  },
  {
    path: "m/0'/1'/2'",
    chainCode: '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c',
    privateKey: '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9',
  },
  {
    path: "m/0'/1'/2'/2'",
    chainCode: '8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc',
    privateKey: '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662',
  },
  {
    path: "m/0'/1'/2'/2'/1000000000'",
    chainCode: '68789923a0cac2cd5a29172a475fe9e0fb14cd6adb5ad98a3fa70333e7afa230',
    privateKey: '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793',
  },
];

// The BIP-39 test phrase of 128 zero bits. Phantom and Solflare show this address for it (first
// account, m/44'/501'/0'/0'); projects that test their Solana wallets with this phrase assert it too.
const testPhrase = `${'abandon '.repeat(11)}about`;
const testPhraseAddress = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk';

describe('SLIP-0010 ed25519 derivation', () => {
  it.each(vector1)('gives the published chain code and private key at $path', (node) => {
    const derived = slip10Ed25519(vectorSeed, node.path);
    expect(hex.encode(derived.chainCode)).toBe(node.chainCode);
    expect(hex.encode(derived.privateKey)).toBe(node.privateKey);
  });

  it('gives the published public keys of m and m/0H', () => {
    const publicKey = (path: string) =>
      hex.encode(ed25519.getPublicKey(slip10Ed25519(vectorSeed, path).privateKey));
    expect(`00${publicKey('m')}`).toBe('00a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed');
    expect(`00${publicKey("m/0'")}`).toBe(
      '008c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c',
    );
  });

  it('refuses a path that is not all hardened, rather than deriving another key', () => {
    expect(() => slip10Ed25519(vectorSeed, "m/44'/501'/0'/0")).toThrow('only hardened levels');
    expect(() => slip10Ed25519(vectorSeed, "44'/501'")).toThrow('Not a derivation path');
    expect(() => slip10Ed25519(vectorSeed, "m/2147483648'")).toThrow('only hardened levels');
    expect(hex.encode(slip10Ed25519(vectorSeed, 'm/0H/1H').privateKey)).toBe(vector1[2]?.privateKey);
  });
});

describe('the Solana escrow key', () => {
  it("sits at m/44'/501'/0'/0', the path of Phantom's and Solflare's first account", () => {
    expect(solanaEscrowKeyPath).toBe("m/44'/501'/0'/0'");
  });

  it('is the address wallets derive from the phrase, whatever the spacing or case typed', () => {
    expect(solanaEscrowKeyFromSeed(testPhrase).address).toBe(testPhraseAddress);
    expect(solanaEscrowKeyFromSeed(`  ${testPhrase.toUpperCase().replaceAll(' ', '  ')}\n`).address).toBe(
      testPhraseAddress,
    );
  });

  it('holds the private key of that address, and it signs as the address', () => {
    const key = solanaEscrowKeyFromSeed(testPhrase);
    expect(base58.encode(ed25519.getPublicKey(key.privateKey))).toBe(testPhraseAddress);
    expect(base58.encode(key.publicKey)).toBe(testPhraseAddress);
    const message = new TextEncoder().encode('a message');
    expect(
      ed25519.verify(ed25519.sign(message, key.privateKey), message, base58.decode(testPhraseAddress)),
    ).toBe(true);
  });
});

describe('chainsListSolana', () => {
  it('is true only when GET /chains lists SOL', () => {
    expect(chainsListSolana([{ chain: 'ETH' }, { chain: 'BTC' }])).toBe(false);
    expect(chainsListSolana([{ chain: 'ETH' }, { chain: 'SOL' }])).toBe(true);
    expect(chainsListSolana([])).toBe(false);
  });
});
