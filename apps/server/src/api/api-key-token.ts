import { createHash, randomBytes } from 'node:crypto';

/** API keys look like `cov_live_<43 base64url characters>` (256 random bits). */
export const apiKeyPrefix = 'cov_live_';

export function generateApiKeyToken(): { key: string; prefix: string; hash: string } {
  const key = `${apiKeyPrefix}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, apiKeyPrefix.length + 8), hash: hashApiKey(key) };
}

/** Keys are random enough that a plain SHA-256 cannot be reversed; a slow hash would only slow every call. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
