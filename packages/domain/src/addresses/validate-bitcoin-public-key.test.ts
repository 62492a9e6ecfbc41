import { describe, expect, it } from 'vitest';
import { validateBitcoinPublicKey } from './validate-bitcoin-public-key.js';

// BIP-84's test vector: the key at m/84'/0'/0'/0/0 of the phrase "abandon … about".
const compressed = '0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c';
// The same point uncompressed (04 ‖ x ‖ y).
const uncompressed =
  '0430d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c04717159ce0828a7f686c2c7510b7aa7d4c685ebc2051642ccbebc7099e2f679';
// x = 5: x³ + 7 = 132 is not a square modulo p, so no point has this x.
const notOnCurve = `02${'00'.repeat(31)}05`;

describe('validateBitcoinPublicKey', () => {
  it('accepts a compressed point and answers it in lower case', () => {
    expect(validateBitcoinPublicKey(compressed)).toEqual({ ok: true, publicKey: compressed });
    expect(validateBitcoinPublicKey(compressed.toUpperCase())).toEqual({ ok: true, publicKey: compressed });
  });

  it.each([
    ['an x with no point on the curve', notOnCurve, 'not a point on the secp256k1 curve'],
    ['an uncompressed key', uncompressed, 'uncompressed public key'],
    ['one byte short', compressed.slice(0, 64), '66 hex digits (33 bytes); this one has 64'],
    ['a wrong prefix', `04${compressed.slice(2)}`, 'starts with 02 or 03'],
    ['a non-hex character', `${compressed.slice(0, 65)}g`, 'hexadecimal digits only'],
    ['an address', 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080', 'hexadecimal digits only'],
  ])('refuses %s', (_name, key, reason) => {
    const check = validateBitcoinPublicKey(key);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.reason).toContain(reason);
  });
});
