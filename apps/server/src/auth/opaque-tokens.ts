import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';

/** A bearer secret for a link or a refresh token: 256 random bits, URL-safe. */
export function generateOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as this hash, so a leaked table grants nothing. */
export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The refresh token that replaces `parent`; see `refreshTokens` in the schema for why it is derived. */
export function deriveChildToken(parent: string, salt: string): string {
  return createHmac('sha256', parent).update(salt).digest('base64url');
}

/** A 6-digit code for people to type from an e-mail. */
export function generateNumericCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}
