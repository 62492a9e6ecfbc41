import { createHash } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { deviceTokenLifetimeSeconds } from '../../auth/device-token.js';

// One cookie per account signed in on the browser, so signing in to one keeps the others' tokens.
const cookiePrefix = 'covenant-device-';

/** The device tokens the request carries (ADR 012), of whichever accounts. */
export function deviceTokensOf(request: FastifyRequest): string[] {
  const header = request.headers.cookie;
  if (!header) return [];
  return Object.entries(parseCookie(header))
    .filter(([name, value]) => name.startsWith(cookiePrefix) && value)
    .map(([, value]) => value!);
}

/**
 * Gives the browser the device token of a successful sign-in: HttpOnly (no script reads it),
 * SameSite=Strict (no other site's request carries it), Secure whenever the site is on https.
 */
export function setDeviceCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string,
  device: { userId: string; token: string },
): void {
  const name = cookiePrefix + createHash('sha256').update(device.userId).digest('hex').slice(0, 16);
  const secure = publicUrl.startsWith('https:') || request.protocol === 'https';
  reply.header(
    'set-cookie',
    stringifySetCookie(name, device.token, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: '/',
      maxAge: deviceTokenLifetimeSeconds,
    }),
  );
}
