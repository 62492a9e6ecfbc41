import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';
import { oauthFlowLifetimeSeconds } from '../../auth/start-oauth-flow.js';

// The state of a sign-in with Google, sent along only to the callback: the provider's answer is
// accepted only in the browser that started the sign-in (no login CSRF). Lax, as the callback is a
// top-level navigation coming from Google's site.
const stateCookie = { name: 'covenant-oauth-state', path: '/auth/v1/callback', sameSite: 'lax' } as const;
// A Google identity waiting for the password of the account its address has (ADR 023): sent only to
// the token endpoint, by this site's own requests.
const linkCookie = { name: 'covenant-identity-link', path: '/auth/v1/token', sameSite: 'strict' } as const;

type Cookie = typeof stateCookie | typeof linkCookie;

function readCookie(request: FastifyRequest, cookie: Cookie): string | undefined {
  const header = request.headers.cookie;
  return header ? parseCookie(header)[cookie.name] || undefined : undefined;
}

function writeCookie(
  publicUrl: string,
  request: FastifyRequest,
  cookie: Cookie,
  value: string | null,
): string {
  return stringifySetCookie(cookie.name, value ?? '', {
    httpOnly: true,
    sameSite: cookie.sameSite,
    secure: publicUrl.startsWith('https:') || request.protocol === 'https',
    path: cookie.path,
    maxAge: value === null ? 0 : oauthFlowLifetimeSeconds,
  });
}

export const oauthStateOf = (request: FastifyRequest) => readCookie(request, stateCookie);
export const identityLinkTokenOf = (request: FastifyRequest) => readCookie(request, linkCookie);

/** `Set-Cookie` values: the state of a started flow, or (null) its removal. */
export const oauthStateCookie = (publicUrl: string, request: FastifyRequest, state: string | null) =>
  writeCookie(publicUrl, request, stateCookie, state);
export const identityLinkCookie = (publicUrl: string, request: FastifyRequest, token: string | null) =>
  writeCookie(publicUrl, request, linkCookie, token);
