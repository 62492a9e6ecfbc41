import { randomUUID } from 'node:crypto';
import { errors, jwtVerify } from 'jose';
import type { AuthDeps } from './auth-deps.js';
import { accessTokenIssuer } from './issue-access-token.js';

/**
 * A device token says "this browser signed in to this account before" (OWASP's device cookie). It
 * grants nothing by itself: it only lets the device's sign-in attempts be judged on its own failures
 * rather than on everyone's (ADR 012). Signed with the access-token key but for another audience
 * and type, so neither kind of token passes for the other.
 */
const deviceAudience = 'known-device';
const deviceTokenType = 'device+jwt';
export const deviceTokenLifetimeSeconds = 180 * 24 * 3600;

/** At most this many presented tokens are checked: one per account signed in on the browser. */
const maximumTokensChecked = 8;

type DeviceTokenDeps = Pick<AuthDeps, 'signingKey' | 'config' | 'now'>;

/** A new device token for `userId`, with a fresh device id. */
export async function issueDeviceToken(deps: DeviceTokenDeps, userId: string): Promise<string> {
  const issuedAt = Math.floor(deps.now().getTime() / 1000);
  return deps.signingKey.signJwt(deviceTokenType, {
    iss: accessTokenIssuer(deps.config.publicUrl),
    aud: deviceAudience,
    sub: userId,
    jti: randomUUID(),
    iat: issuedAt,
    exp: issuedAt + deviceTokenLifetimeSeconds,
  });
}

/**
 * The device id of the first presented token that is valid and issued to `userId`. Every token is
 * checked even when no account matches, so the time taken says nothing about the account.
 */
export async function findKnownDevice(
  deps: DeviceTokenDeps,
  tokens: readonly string[],
  userId: string | undefined,
): Promise<string | undefined> {
  const devices = await Promise.all(
    tokens.slice(0, maximumTokensChecked).map((token) => verify(deps, token)),
  );
  return devices.find((device) => device !== undefined && device.userId === userId)?.deviceId;
}

async function verify(
  deps: DeviceTokenDeps,
  token: string,
): Promise<{ userId: string; deviceId: string } | undefined> {
  try {
    const { payload } = await jwtVerify(token, deps.signingKey.publicKey, {
      algorithms: ['ES256'],
      typ: deviceTokenType,
      issuer: accessTokenIssuer(deps.config.publicUrl),
      audience: deviceAudience,
      currentDate: deps.now(),
      requiredClaims: ['sub', 'jti', 'exp'],
    });
    return { userId: payload.sub!, deviceId: payload.jti! };
  } catch (error) {
    if (error instanceof errors.JOSEError) return undefined;
    throw error;
  }
}
