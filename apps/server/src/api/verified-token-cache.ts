/** What a verified access token says about its caller. */
export interface TokenClaims {
  userId: string;
  sessionId: string;
}

export interface VerifiedTokenCache {
  get(token: string, now: Date): TokenClaims | undefined;
  set(token: string, claims: TokenClaims, expiresAt: Date): void;
}

/**
 * Access tokens whose signature already checked out, kept until they expire: ECDSA verification is
 * the costliest CPU step of an API request, and clients send the same token many times. Whether the
 * session still exists is checked on every request regardless. Oldest entries go first when full.
 */
export function createVerifiedTokenCache(maxEntries = 10_000): VerifiedTokenCache {
  const entries = new Map<string, TokenClaims & { expiresAtMs: number }>();
  return {
    get: (token, now) => {
      const entry = entries.get(token);
      if (!entry) return undefined;
      if (entry.expiresAtMs <= now.getTime()) {
        entries.delete(token);
        return undefined;
      }
      return { userId: entry.userId, sessionId: entry.sessionId };
    },
    set: (token, claims, expiresAt) => {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(token, { ...claims, expiresAtMs: expiresAt.getTime() });
    },
  };
}
