import { createPublicKey } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSigningKey } from './load-signing-key.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'covenant-keys-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('loadSigningKey', () => {
  it('generates a key into DATA_DIR/keys on first start, readable by the owner only, and reuses it', async () => {
    const first = await loadSigningKey({ jwtPrivateJwk: undefined, dataDir });
    const path = join(dataDir, 'keys', 'jwt-signing-key.json');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      kid: first.kid,
    });

    const second = await loadSigningKey({ jwtPrivateJwk: undefined, dataDir });
    expect(second.kid).toBe(first.kid);
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).sign(first.privateKey);
    await expect(jwtVerify(token, second.publicKey)).resolves.toBeDefined();
    expect(first.publicJwk).not.toHaveProperty('d');
  });

  it('uses the configured key and never writes one', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'production-1' };
    const key = await loadSigningKey({ jwtPrivateJwk: JSON.stringify(jwk), dataDir });
    expect(key.kid).toBe('production-1');
    expect(key.publicJwk).toMatchObject({ kid: 'production-1', alg: 'ES256', key_ops: ['verify'] });
    await expect(stat(join(dataDir, 'keys', 'jwt-signing-key.json'))).rejects.toThrow();
  });

  it('signs JWTs that jose verifies with the published key, and only with it', async () => {
    const key = await loadSigningKey({ jwtPrivateJwk: undefined, dataDir });
    const claims = {
      sub: 'user-1',
      aud: 'authenticated',
      iat: 1_700_000_000,
      exp: 4_000_000_000,
      note: 'é ✓',
    };
    const token = key.signJwt('device+jwt', claims);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: key.kid, typ: 'device+jwt' });
    const published = createPublicKey({ key: key.publicJwk, format: 'jwk' } as Parameters<
      typeof createPublicKey
    >[0]);
    const { payload } = await jwtVerify(token, published, { algorithms: ['ES256'], typ: 'device+jwt' });
    expect(payload).toEqual(claims);
    // A signature is r‖s (64 bytes), as ES256 asks, not DER; and it covers header and claims.
    expect(Buffer.from(token.split('.')[2]!, 'base64url')).toHaveLength(64);
    const [header, , signature] = token.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'user-2' })).toString('base64url')}.${signature}`;
    await expect(jwtVerify(forged, key.publicKey)).rejects.toThrow(/signature verification failed/);
    const other = await loadSigningKey({ jwtPrivateJwk: undefined, dataDir: `${dataDir}/other` });
    await expect(jwtVerify(token, other.publicKey)).rejects.toThrow(/signature verification failed/);
  });

  it.each([
    ['not JSON', 'not json'],
    ['a public key', JSON.stringify({ kty: 'EC', crv: 'P-256', x: 'a', y: 'b' })],
    ['an RSA key', JSON.stringify({ kty: 'RSA', n: 'a', e: 'AQAB', d: 'c' })],
  ])('refuses %s as the configured key', async (_name, text) => {
    await expect(loadSigningKey({ jwtPrivateJwk: text, dataDir })).rejects.toThrow(/AUTH_JWT_PRIVATE_JWK/);
  });
});
