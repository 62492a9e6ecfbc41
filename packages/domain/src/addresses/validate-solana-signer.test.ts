import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { validateSolanaSigner } from './validate-solana-signer.js';

describe('validateSolanaSigner', () => {
  it('accepts an ed25519 public key in base58', () => {
    const address = base58.encode(ed25519.getPublicKey(new Uint8Array(32).fill(7)));
    expect(validateSolanaSigner(address)).toEqual({ ok: true, address });
  });

  it('refuses an address off the curve, as a program-derived address is', () => {
    let offCurve: Uint8Array | null = null;
    for (let seed = 0; offCurve === null; seed++) {
      const candidate = sha256(new TextEncoder().encode(`covenant-${seed}`));
      try {
        ed25519.Point.fromBytes(candidate);
      } catch {
        offCurve = candidate;
      }
    }
    const check = validateSolanaSigner(base58.encode(offCurve));
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(/not on the ed25519 curve/);
  });

  it('refuses what is not base58 of 32 bytes, saying why', () => {
    expect(validateSolanaSigner('0OIl')).toEqual({
      ok: false,
      reason: 'A Solana address is written in base58 (no 0, O, I or l)',
    });
    expect(validateSolanaSigner(base58.encode(new Uint8Array(31).fill(1)))).toEqual({
      ok: false,
      reason: 'A Solana public key is 32 bytes; this one has 31',
    });
  });
});
