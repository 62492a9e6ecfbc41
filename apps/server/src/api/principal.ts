import type { schema } from '@covenant/db';

/** Who calls /api/v1: a signed-in session or one of the user's API keys, with the user's API tier. */
export interface Principal {
  userId: string;
  /** Staff roles; API keys carry none, so staff actions need a signed-in session. */
  roles: schema.UserRole[];
  /** The session's assurance level: 'aal2' once a TOTP code was verified in it. API keys are 'aal1'. */
  aal: 'aal1' | 'aal2';
  kind: 'session' | 'api_key';
  /** The API key's id when kind is api_key: rate limits count per key. */
  apiKeyId: string | null;
  tier: schema.ApiAccessTier;
  /** An API key's scopes (ADR 013); a session has every scope its user has. */
  scopes: readonly schema.ApiKeyScope[];
  /** When the session last proved its user (its latest `amr` entry); null for API keys. */
  authenticatedAt: Date | null;
  /** The session's proofs of identity (`amr`), for a sensitive action's second-factor rule; empty for API keys. */
  amr: readonly schema.AuthMethodReference[];
}

/** What a session may do beyond its roles: everything an API key could be allowed. */
export const sessionScopes: readonly schema.ApiKeyScope[] = ['read', 'trade'];
