import { type KeyObject, sign } from 'node:crypto';

const base64urlJson = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * An ES256 JWT in RFC 7515's compact serialization, with the raw r‖s signature ES256 asks for
 * (RFC 7518 §3.4), signed with the P-256 `key` on the calling thread.
 */
export function signCompactJwt(
  key: KeyObject,
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
): string {
  const input = `${base64urlJson(header)}.${base64urlJson(claims)}`;
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}
