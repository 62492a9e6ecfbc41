import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { solanaAccounts as a } from '@/testing/solana-fixtures.js';
import {
  addressBytes,
  associatedTokenAddress,
  findProgramAddress,
  isOnCurve,
  isSolanaAddress,
  nativeMint,
} from './solana-address.js';

const privateKey = (n: number) => Uint8Array.from({ length: 32 }, (_, index) => (index === 31 ? n : 0));

describe('Solana addresses', () => {
  it('are the base58 of a 32-byte key: the fixtures are the ed25519 keys they say they are', () => {
    expect(base58.encode(ed25519.getPublicKey(privateKey(1)))).toBe(a.ada);
    expect(base58.encode(ed25519.getPublicKey(privateKey(10)))).toBe(a.multisig);
    expect(addressBytes(nativeMint)).toHaveLength(32);
    expect(isSolanaAddress(a.grace)).toBe(true);
    expect(isSolanaAddress('0x9858EfFD232B4033E47d90003D41EC34EcaEda94')).toBe(false);
    expect(isSolanaAddress('3yZe7d')).toBe(false);
    expect(() => addressBytes('not base58: 0OIl')).toThrow('is not a Solana address');
  });

  it('tell a key on the curve from a program address off it', () => {
    expect(isOnCurve(addressBytes(a.grace))).toBe(true);
    expect(isOnCurve(addressBytes(a.usdcTokenAccount))).toBe(false);
  });
});

describe('associatedTokenAddress', () => {
  it('finds the associated token account @solana/spl-token finds (published vector)', () => {
    // Owner HAgk14…, mint 0x44 × 32, legacy Token program → FF2Bjg… (an independent
    // @solana/spl-token 0.4.14 vector, also what @solana-program/token 0.16.1 finds).
    const mint = base58.encode(new Uint8Array(32).fill(0x44));
    expect(associatedTokenAddress(a.grace, mint)).toBe('FF2BjgeRK2LgK8Lj4wY2CTJrmJAKV5ZPCdHqfq1tJLGi');
  });

  it('finds the accounts @solana-program/token finds for the fixtures', () => {
    expect(associatedTokenAddress(a.multisig, a.usdc)).toBe(a.usdcTokenAccount);
    expect(associatedTokenAddress(a.ada, a.usdc)).toBe(a.adaUsdcAccount);
    expect(associatedTokenAddress(a.fee, a.usdc)).toBe(a.feeUsdcAccount);
  });

  it('takes the first bump from 255 whose hash is off the curve', () => {
    const [address, bump] = findProgramAddress(
      [addressBytes(a.grace)],
      'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
    );
    expect(bump).toBeLessThanOrEqual(255);
    expect(isOnCurve(addressBytes(address))).toBe(false);
  });
});
