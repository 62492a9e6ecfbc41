import { escrowKeyRequestSchema, type TypedDataJson } from '@covenant/domain';
import { recoverTypedDataAddress } from 'viem';
import { english } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  createEscrowSeed,
  decryptEscrowSeed,
  encryptEscrowSeed,
  ethereumAccountFromSeed,
  isValidEscrowSeed,
  signEscrowTypedData,
  wrongEscrowPasswordMessage,
} from './escrow-seed.js';

// The BIP-39 test phrase of 128 zero bits; every wallet derives this address at m/44'/60'/0'/0/0.
const testPhrase = `${'abandon '.repeat(11)}about`;
const testPhraseAddress = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
// Tests stretch the password less than the 600 000 rounds the app uses, except where the default is the point.
const fewIterations = 1_000;

describe('the escrow seed', () => {
  it('is a fresh 12-word English phrase each time, with a valid checksum', () => {
    const seed = createEscrowSeed();
    const words = seed.split(' ');
    expect(words).toHaveLength(12);
    for (const word of words) expect(english).toContain(word);
    expect(isValidEscrowSeed(seed)).toBe(true);
    expect(createEscrowSeed()).not.toBe(seed);
  });

  it('derives the Ethereum account every wallet derives, whatever the spacing or case typed', () => {
    expect(ethereumAccountFromSeed(testPhrase).address).toBe(testPhraseAddress);
    expect(ethereumAccountFromSeed(`  ${testPhrase.toUpperCase().replaceAll(' ', '   ')}\n`).address).toBe(
      testPhraseAddress,
    );
  });

  it('accepts only 12 known words whose last bits are the checksum', () => {
    expect(isValidEscrowSeed(testPhrase)).toBe(true);
    expect(isValidEscrowSeed(`${'zoo '.repeat(11)}wrong`)).toBe(true);
    // Twelve real words, but the last four bits are not the SHA-256 checksum of the first 128.
    expect(isValidEscrowSeed('abandon '.repeat(12))).toBe(false);
    expect(isValidEscrowSeed(`${'abandon '.repeat(11)}abuot`)).toBe(false);
    expect(isValidEscrowSeed(`${'abandon '.repeat(10)}about`)).toBe(false);
    expect(isValidEscrowSeed('')).toBe(false);
  });
});

describe('encrypting the seed with the escrow password', () => {
  it('by default makes exactly the request the API takes: PBKDF2 600 000 × SHA-256 → AES-256-GCM', async () => {
    const encrypted = await encryptEscrowSeed(testPhrase, 'correct horse battery');
    const request = escrowKeyRequestSchema.parse({ ...encrypted, ethereum_address: testPhraseAddress });
    expect(request.encryption).toEqual({
      kdf: 'PBKDF2',
      hash: 'SHA-256',
      iterations: 600_000,
      salt: expect.any(String),
      cipher: 'AES-256-GCM',
      iv: expect.any(String),
    });
    expect(atob(request.encryption.salt)).toHaveLength(16);
    expect(atob(request.encryption.iv)).toHaveLength(12);
    // The UTF-8 phrase plus the 16-byte GCM tag, and none of it readable.
    expect(atob(request.ciphertext)).toHaveLength(testPhrase.length + 16);
    expect(atob(request.ciphertext)).not.toContain('abandon');
    expect(await decryptEscrowSeed(encrypted, 'correct horse battery')).toBe(testPhrase);
  });

  it('uses a new salt and IV each time, so the same seed and password never give the same ciphertext', async () => {
    const first = await encryptEscrowSeed(testPhrase, 'correct horse battery', fewIterations);
    const second = await encryptEscrowSeed(testPhrase, 'correct horse battery', fewIterations);
    expect(second.encryption.salt).not.toBe(first.encryption.salt);
    expect(second.encryption.iv).not.toBe(first.encryption.iv);
    expect(second.ciphertext).not.toBe(first.ciphertext);
    expect(await decryptEscrowSeed(second, 'correct horse battery')).toBe(testPhrase);
  });

  it('refuses a wrong password and a tampered ciphertext with the same message', async () => {
    const encrypted = await encryptEscrowSeed(testPhrase, 'correct horse battery', fewIterations);
    await expect(decryptEscrowSeed(encrypted, 'correct horse battery!')).rejects.toThrow(
      new Error(wrongEscrowPasswordMessage),
    );
    expect(wrongEscrowPasswordMessage).toBe('That escrow password is not right.');
    const raw = atob(encrypted.ciphertext);
    const flipped = String.fromCharCode(raw.charCodeAt(0) ^ 1) + raw.slice(1);
    await expect(
      decryptEscrowSeed({ ...encrypted, ciphertext: btoa(flipped) }, 'correct horse battery'),
    ).rejects.toThrow(wrongEscrowPasswordMessage);
  });
});

describe('signing an escrow payout', () => {
  const recipients = [
    '0x00000000000000000000000000000000000000cc',
    '0x00000000000000000000000000000000000000fe',
  ];
  const typedData: TypedDataJson = {
    domain: {
      name: 'CovenantEscrow',
      version: '1',
      chainId: 31337,
      verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    },
    types: {
      Payout: [
        { name: 'action', type: 'uint8' },
        { name: 'recipients', type: 'address[]' },
        { name: 'amounts', type: 'uint256[]' },
        { name: 'nonce', type: 'uint256' },
      ],
    },
    primaryType: 'Payout',
    // 2.5 ETH less the 1 bp fee (250 000 000 000 000 wei) to the receiver, the fee to the platform;
    // the amounts are past 2^53, so only decimal strings carry them exactly.
    message: {
      action: 1,
      recipients,
      amounts: ['2499750000000000000', '250000000000000'],
      nonce: '0',
    },
  };

  it('signs the JSON payload with the seed’s Ethereum account, integers taken as uint256', async () => {
    const signature = await signEscrowTypedData(testPhrase, typedData);
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
    const signer = await recoverTypedDataAddress({
      domain: { ...typedData.domain, verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' },
      types: {
        Payout: [
          { name: 'action', type: 'uint8' },
          { name: 'recipients', type: 'address[]' },
          { name: 'amounts', type: 'uint256[]' },
          { name: 'nonce', type: 'uint256' },
        ],
      },
      primaryType: 'Payout',
      message: {
        action: 1,
        recipients: recipients as `0x${string}`[],
        amounts: [2_499_750_000_000_000_000n, 250_000_000_000_000n],
        nonce: 0n,
      },
      signature,
    });
    expect(signer).toBe(testPhraseAddress);
    // Numbers and decimal strings are the same integers: the signature (RFC 6979, deterministic) too.
    const asStrings = { ...typedData, message: { ...typedData.message, action: '1', nonce: 0 } };
    expect(await signEscrowTypedData(testPhrase, asStrings)).toBe(signature);
  });

  it('signs nothing but an escrow payout: a token permit served in its place is refused', async () => {
    const permit: TypedDataJson = {
      domain: typedData.domain,
      types: {
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
      message: { owner: testPhraseAddress, spender: recipients[0], value: '1', nonce: '0', deadline: '1' },
    };
    await expect(signEscrowTypedData(testPhrase, permit)).rejects.toThrow(
      'This is not an escrow payout, so it was not signed.',
    );
    const extraField = {
      ...typedData,
      types: { Payout: [...(typedData.types.Payout ?? []), { name: 'spender', type: 'address' }] },
    };
    await expect(signEscrowTypedData(testPhrase, extraField)).rejects.toThrow('not an escrow payout');
    // A Payout of another contract's domain (another name or version) is no escrow payout either.
    for (const domain of [
      { ...typedData.domain, name: 'USD Coin' },
      { ...typedData.domain, version: '2' },
    ]) {
      await expect(signEscrowTypedData(testPhrase, { ...typedData, domain })).rejects.toThrow(
        'This is not an escrow payout, so it was not signed.',
      );
    }
  });

  it('refuses an amount that is not an integer rather than signing something else', async () => {
    const fractional = { ...typedData, message: { ...typedData.message, amounts: ['2.5', '1'] } };
    await expect(signEscrowTypedData(testPhrase, fractional)).rejects.toThrow(
      'Expected an integer for uint256, got "2.5"',
    );
  });
});
