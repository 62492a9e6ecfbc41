import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSealedText, openSealedText, sealText } from './seal-text.js';

const masterKey = randomBytes(32);

describe('sealText', () => {
  it('opens only with the same master key and context, and not after any change', () => {
    const sealed = sealText(masterKey, '{"key":"cov_live_secret"}', 'idempotency:user:key-1');
    expect(isSealedText(sealed)).toBe(true);
    expect(sealed).not.toContain('cov_live_secret');
    expect(sealText(masterKey, '{"key":"cov_live_secret"}', 'idempotency:user:key-1')).not.toBe(sealed);
    expect(openSealedText(masterKey, sealed, 'idempotency:user:key-1')).toBe('{"key":"cov_live_secret"}');
    expect(() => openSealedText(masterKey, sealed, 'idempotency:user:key-2')).toThrow();
    expect(() => openSealedText(randomBytes(32), sealed, 'idempotency:user:key-1')).toThrow();
    const bytes = Buffer.from(sealed.slice('sealed:v1:'.length), 'base64');
    bytes[14] = (bytes[14] ?? 0) ^ 1;
    expect(() =>
      openSealedText(masterKey, `sealed:v1:${bytes.toString('base64')}`, 'idempotency:user:key-1'),
    ).toThrow();
    expect(isSealedText('{"key":"cov_live_secret"}')).toBe(false);
  });
});
