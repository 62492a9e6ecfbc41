import { createPrivateKey } from 'node:crypto';
import { join } from 'node:path';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
} from 'jose';
import { readOrCreateSecretFile } from '../files/secret-file.js';
import { signCompactJwt } from './sign-compact-jwt.js';

/** The ES256 key that signs access tokens; `publicJwk` is what /.well-known/jwks.json serves. */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  /**
   * A compact ES256 JWT of `claims` whose header says `typ`, this key's `kid` and ES256. Signed
   * on the calling thread: WebCrypto (jose's `SignJWT`) would queue each signature on the libuv pool,
   * behind the argon2 verifications of the sign-ins in flight.
   */
  signJwt(typ: string, claims: Record<string, unknown>): string;
}

const keyFileName = 'jwt-signing-key.json';

/**
 * The configured key (AUTH_JWT_PRIVATE_JWK) when there is one; otherwise the key kept in
 * `DATA_DIR/keys`, generated on first start and readable by the owner only.
 */
export async function loadSigningKey(options: {
  jwtPrivateJwk: string | undefined;
  dataDir: string;
}): Promise<SigningKey> {
  if (options.jwtPrivateJwk)
    return signingKeyFromJwk(parseJwk(options.jwtPrivateJwk, 'AUTH_JWT_PRIVATE_JWK'));
  const path = join(options.dataDir, 'keys', keyFileName);
  const text = await readOrCreateSecretFile(
    path,
    async () => `${JSON.stringify(await generatePrivateJwk())}\n`,
  );
  return signingKeyFromJwk(parseJwk(text, path));
}

/** A fresh key that lives only in memory (tests). */
export async function generateSigningKey(): Promise<SigningKey> {
  return signingKeyFromJwk(await generatePrivateJwk());
}

async function generatePrivateJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, alg: 'ES256', kid: await calculateJwkThumbprint(jwk) };
}

function parseJwk(text: string, source: string): JWK {
  let jwk: JWK;
  try {
    jwk = JSON.parse(text) as JWK;
  } catch {
    throw new Error(`${source} is not a JSON Web Key`);
  }
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.d || !jwk.x || !jwk.y) {
    throw new Error(`${source} must be a private EC P-256 JSON Web Key (ES256)`);
  }
  return jwk;
}

async function signingKeyFromJwk(jwk: JWK): Promise<SigningKey> {
  const publicBase = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
  const kid = jwk.kid ?? (await calculateJwkThumbprint(publicBase));
  const privateKey = (await importJWK({ ...jwk, alg: 'ES256' }, 'ES256')) as CryptoKey;
  const publicKey = (await importJWK({ ...publicBase, alg: 'ES256' }, 'ES256')) as CryptoKey;
  const keyObject = createPrivateKey({ key: jwk, format: 'jwk' } as Parameters<typeof createPrivateKey>[0]);
  return {
    kid,
    privateKey,
    publicKey,
    publicJwk: { ...publicBase, kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] },
    signJwt: (typ, claims) => signCompactJwt(keyObject, { alg: 'ES256', kid, typ }, claims),
  };
}
