import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { AuthDeps } from '../auth/auth-deps.js';
import { isAuthError } from '../auth/auth-error.js';
import { authenticateRequest } from '../auth/authenticate-request.js';
import { apiKeyPrefix, hashApiKey } from './api-key-token.js';
import type { Principal } from './principal.js';

/** `last_used_at` is written at most this often per key, so busy keys do not turn every read into a write. */
const lastUsedPrecisionMs = 60_000;

/**
 * Establishes who calls /api/v1 from `Authorization: Bearer …`: an API key (`cov_live_…`, looked up
 * by its hash) or a session access token. Anything else is 401 UNAUTHORIZED.
 */
export async function authenticatePrincipal(
  deps: Pick<AuthDeps, 'db' | 'signingKey' | 'config' | 'now'>,
  authorization: string | undefined,
): Promise<Principal> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!token) throw new AppError('UNAUTHORIZED', 'This endpoint requires a Bearer token');
  if (token.startsWith(apiKeyPrefix)) return authenticateApiKey(deps, token);
  try {
    const session = await authenticateRequest(deps, authorization);
    return {
      userId: session.userId,
      roles: session.roles,
      kind: 'session',
      apiKeyId: null,
      tier: await apiTierOf(deps.db, session.userId),
    };
  } catch (error) {
    if (isAuthError(error)) throw new AppError('UNAUTHORIZED', 'The access token is invalid or expired');
    throw error;
  }
}

async function authenticateApiKey(deps: Pick<AuthDeps, 'db' | 'now'>, key: string): Promise<Principal> {
  const [row] = await deps.db
    .select({ id: schema.apiKeys.id, userId: schema.apiKeys.userId, tier: schema.apiAccessTiers.tier })
    .from(schema.apiKeys)
    .leftJoin(schema.apiAccessTiers, eq(schema.apiAccessTiers.userId, schema.apiKeys.userId))
    .where(eq(schema.apiKeys.keyHash, hashApiKey(key)));
  if (!row) throw new AppError('UNAUTHORIZED', 'The API key is invalid or revoked');
  const now = deps.now();
  await deps.db
    .update(schema.apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(schema.apiKeys.id, row.id),
        or(
          isNull(schema.apiKeys.lastUsedAt),
          lt(schema.apiKeys.lastUsedAt, new Date(now.getTime() - lastUsedPrecisionMs)),
        ),
      ),
    );
  return { userId: row.userId, roles: [], kind: 'api_key', apiKeyId: row.id, tier: row.tier ?? 'standard' };
}

async function apiTierOf(db: Db, userId: string): Promise<schema.ApiAccessTier> {
  const [row] = await db
    .select({ tier: schema.apiAccessTiers.tier })
    .from(schema.apiAccessTiers)
    .where(eq(schema.apiAccessTiers.userId, userId));
  return row?.tier ?? 'standard';
}
