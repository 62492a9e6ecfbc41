import { ed25519 } from '@noble/curves/ed25519.js';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base58, hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  SOLANA_RELAYER_KEY_PATH,
  solanaLegAccountPrivateKey,
  solanaLegKeyPath,
  solanaPlatformKeyFromSeed,
} from './platform-solana-key.js';
import { slip10DerivePath } from './slip10-ed25519.js';

// SLIP-0010's published test vectors for ed25519 (github.com/satoshilabs/slips, slip-0010.md):
// [path, chain code, private key, public key with the spec's 00 prefix].
const VECTOR_1_SEED = '000102030405060708090a0b0c0d0e0f';
const VECTOR_1: [string, string, string, string][] = [
  [
    'm',
    '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb',
    '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7',
    '00a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed',
  ],
  [
    "m/0'",
    '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69',
    '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
    '008c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c',
  ],
  [
    "m/0'/1'",
    'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14',
    'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2',
    '001932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187',
  ],
  [
    "m/0'/1'/2'",
    '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c',
    '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9',
    '00ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1',
  ],
  [
    "m/0'/1'/2'/2'",
    '8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc',
    '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662',
    '008abae2d66361c879b900d204ad2cc4984fa2aa344dd7ddc46007329ac76c429c',
  ],
  [
    "m/0'/1'/2'/2'/1000000000'",
    '68789923a0cac2cd5a29172a475fe9e0fb14cd6adb5ad98a3fa70333e7afa230',
    '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793',
    '003c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a',
  ],
];
const VECTOR_2_SEED =
  'fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542';
const VECTOR_2: [string, string, string, string][] = [
  [
    'm',
    'ef70a74db9c3a5af931b5fe73ed8e1a53464133654fd55e7a66f8570b8e33c3b',
    '171cb88b1b3c1db25add599712e36245d75bc65a1a5c9e18d76f9f2b1eab4012',
    '008fe9693f8fa62a4305a140b9764c5ee01e455963744fe18204b4fb948249308a',
  ],
  [
    "m/0'",
    '0b78a3226f915c082bf118f83618a618ab6dec793752624cbeb622acb562862d',
    '1559eb2bbec5790b0c65d8693e4d0875b1747f4970ae8b650486ed7470845635',
    '0086fab68dcb57aa196c77c5f264f215a112c22a912c10d123b0d03c3c28ef1037',
  ],
  [
    "m/0'/2147483647'",
    '138f0b2551bcafeca6ff2aa88ba8ed0ed8de070841f0c4ef0165df8181eaad7f',
    'ea4f5bfe8694d8bb74b7b59404632fd5968b774ed545e810de9c32a4fb4192f4',
    '005ba3b9ac6e90e83effcd25ac4e58a1365a9e35a3d3ae5eb07b9e4d90bcf7506d',
  ],
  [
    "m/0'/2147483647'/1'",
    '73bd9fff1cfbde33a1b846c27085f711c0fe2d66fd32e139d3ebc28e5a4a6b90',
    '3757c7577170179c7868353ada796c839135b3d30554bbb74a4b1e4a5a58505c',
    '002e66aa57069c86cc18249aecf5cb5a9cebbfd6fadeab056254763874a9352b45',
  ],
  [
    "m/0'/2147483647'/1'/2147483646'",
    '0902fe8a29f9140480a00ef244bd183e8a13288e4412d8389d140aac1794825a',
    '5837736c89570de861ebc173b1086da4f505d4adb387c6a1b1342d5e4ac9ec72',
    '00e33c0f7d81d843c572275f287498e8d408654fdf0d1e065b84e2e6f157aab09b',
  ],
  [
    "m/0'/2147483647'/1'/2147483646'/2'",
    '5d70af781f3a37b829f0d060924d5e960bdc02e85423494afc0b1a41bbe196d4',
    '551d333177df541ad876a60ea71f00447931c0a9da16f227c11ea080d7391b8d',
    '0047150c75db263559a70d5778bf36abbab30fb061ad69f69ece61a72b0cfa4fc0',
  ],
];

describe('SLIP-0010 ed25519', () => {
  it.each([
    ...VECTOR_1.map((row) => [VECTOR_1_SEED, ...row] as const),
    ...VECTOR_2.map((row) => [VECTOR_2_SEED, ...row] as const),
  ])(
    'seed %s, %s: the published chain code, private and public key',
    (seed, path, chainCode, privateKey, publicKey) => {
      const node = slip10DerivePath(hex.decode(seed), path);
      expect(hex.encode(node.chainCode)).toBe(chainCode);
      expect(hex.encode(node.privateKey)).toBe(privateKey);
      expect(`00${hex.encode(ed25519.getPublicKey(node.privateKey))}`).toBe(publicKey);
    },
  );

  it("derives m/44'/501'/0'/0' of the BIP 39 test phrase to the address Phantom and Solflare show", () => {
    const phrase =
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
    // BIP 39: PBKDF2-HMAC-SHA512(phrase, "mnemonic" + passphrase, 2048 rounds, 64 bytes).
    const seed = pbkdf2(sha512, utf8ToBytes(phrase), utf8ToBytes('mnemonic'), { c: 2048, dkLen: 64 });
    const node = slip10DerivePath(seed, solanaLegKeyPath(0));
    expect(base58.encode(ed25519.getPublicKey(node.privateKey))).toBe(
      'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk',
    );
  });

  it('refuses unhardened segments and paths not starting at m', () => {
    expect(() => slip10DerivePath(new Uint8Array(32), "m/44'/501'/0")).toThrow(/hardened/);
    expect(() => slip10DerivePath(new Uint8Array(32), "44'/501'")).toThrow(/starts with m/);
  });
});

describe('the platform key from its seed', () => {
  const seed = hex.decode('0707070707070707070707070707070707070707070707070707070707070707');
  const key = solanaPlatformKeyFromSeed(seed);

  it("derives leg signers at m/44'/501'/<index>'/0' and the relayer at m/44'/501'/2147483647'/0'", async () => {
    const addressAt = (path: string) =>
      base58.encode(ed25519.getPublicKey(slip10DerivePath(seed, path).privateKey));
    expect((await key.legSigner(0)).address).toBe(addressAt("m/44'/501'/0'/0'"));
    expect((await key.legSigner(41)).address).toBe(addressAt("m/44'/501'/41'/0'"));
    expect((await key.relayer()).address).toBe(addressAt(SOLANA_RELAYER_KEY_PATH));
    expect(SOLANA_RELAYER_KEY_PATH).toBe("m/44'/501'/2147483647'/0'");
    await expect(key.legSigner(2147483647)).rejects.toThrow(/from 0 to 2147483646/);
    await expect(key.legSigner(-1)).rejects.toThrow(/leg key index/);
  });

  it('derives leg accounts by HMAC-SHA512 of the seed over their label, and signs verifiably', async () => {
    const label = 'deal-1/asset/multisig';
    const account = await key.legAccount(label);
    const privateKey = solanaLegAccountPrivateKey(seed, label);
    expect(account.address).toBe(base58.encode(ed25519.getPublicKey(privateKey)));
    expect((await key.legAccount('deal-1/stable/multisig')).address).not.toBe(account.address);
    const message = utf8ToBytes('a payout message');
    const signature = await account.sign(message);
    expect(ed25519.verify(signature, message, base58.decode(account.address))).toBe(true);
  });

  it('refuses a seed that is not 32 bytes', () => {
    expect(() => solanaPlatformKeyFromSeed(new Uint8Array(64))).toThrow(/32 bytes, not 64/);
  });
});
