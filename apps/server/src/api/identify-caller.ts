import { type Db, oncePerDatabase, prepareSelect, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import type { AuthDeps } from '../auth/auth-deps.js';
import { isAuthError } from '../auth/auth-error.js';
import { verifyAccessToken } from '../auth/authenticate-request.js';
import { lastAuthenticationOf } from './access.js';
import { apiKeyPrefix, hashApiKey } from './api-key-token.js';
import { type Principal, sessionScopes } from './principal.js';
import type { TokenClaims, VerifiedTokenCache } from './verified-token-cache.js';

/** `last_used_at` is written at most this often per key, so busy keys do not turn every read into a write. */
const lastUsedPrecisionMs = 60_000;

export interface IdentifyCallerDeps extends Pick<AuthDeps, 'db' | 'signingKey' | 'config' | 'now'> {
  /** Skips repeated signature checks of the same token (optional: one-off callers go without). */
  verifiedTokens?: VerifiedTokenCache;
}

export interface IdentifiedCaller {
  /** Whose hourly budget the request counts against: the user of a session, or the API key. */
  rateLimitKey: string;
  /**
   * Whether the token itself proved who the caller is (a session token whose signature was
   * checked), so its budget may be counted while `load` confirms the session. An API key proves
   * nothing until `load` finds it: counted first, any made-up key would get a budget of its own.
   */
  proven: boolean;
  /** Confirms the caller in the database (session not signed out, key not revoked) with roles and tier. */
  load(): Promise<Principal>;
}

/**
 * Reads `Authorization: Bearer …` without touching the database: an API key (`cov_live_…`) or a
 * session access token whose signature and expiry are checked here. Splitting identification from
 * loading lets the rate-limit count and the database check of a session run side by side.
 * Anything unusable is 401 UNAUTHORIZED; an unknown or revoked API key is, once loaded.
 */
export async function identifyCaller(
  deps: IdentifyCallerDeps,
  authorization: string | undefined,
): Promise<IdentifiedCaller> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!token) throw new AppError('UNAUTHORIZED', 'This endpoint requires a Bearer token');
  if (token.startsWith(apiKeyPrefix)) {
    const keyHash = hashApiKey(token);
    return {
      rateLimitKey: `api:key:${keyHash.slice(0, 32)}`,
      proven: false,
      load: () => loadApiKeyCaller(deps, keyHash),
    };
  }
  const claims = deps.verifiedTokens?.get(token, deps.now()) ?? (await verifyToken(deps, token));
  return {
    rateLimitKey: `api:user:${claims.userId}`,
    proven: true,
    load: () => loadSessionCaller(deps.db, claims),
  };
}

async function verifyToken(
  deps: Pick<IdentifyCallerDeps, 'signingKey' | 'config' | 'now' | 'verifiedTokens'>,
  token: string,
): Promise<TokenClaims> {
  try {
    const claims = await verifyAccessToken(deps, token);
    deps.verifiedTokens?.set(token, claims, new Date((decodeJwt(token).exp ?? 0) * 1000));
    return claims;
  } catch (error) {
    if (isAuthError(error)) throw new AppError('UNAUTHORIZED', 'The access token is invalid or expired');
    throw error;
  }
}

/** Built once per database: the statement runs on every authenticated request. */
const sessionCallerQuery = oncePerDatabase((db) =>
  prepareSelect(
    db,
    'api_session_caller',
    db
      .select({
        tier: schema.apiAccessTiers.tier,
        aal: schema.sessions.aal,
        amr: schema.sessions.amr,
        roles: sql<
          schema.UserRole[]
        >`array(select ${schema.userRoles.role} from ${schema.userRoles} where ${schema.userRoles.userId} = ${schema.sessions.userId} order by 1)`,
      })
      .from(schema.sessions)
      .leftJoin(schema.apiAccessTiers, eq(schema.apiAccessTiers.userId, schema.sessions.userId))
      .where(
        and(
          eq(schema.sessions.id, sql.placeholder('sessionId')),
          eq(schema.sessions.userId, sql.placeholder('userId')),
        ),
      )
      .$dynamic(),
  ),
);

/**
 * One query: the session still exists, with its assurance level, when it last proved its user, and
 * the user's staff roles and API tier. Read from the session rather than the token, so a
 * reauthentication counts at once for every token of the session.
 */
async function loadSessionCaller(db: Db, claims: TokenClaims): Promise<Principal> {
  const [row] = await sessionCallerQuery(db).execute({ sessionId: claims.sessionId, userId: claims.userId });
  if (!row) throw new AppError('UNAUTHORIZED', 'The session has ended; sign in again');
  return {
    userId: claims.userId,
    roles: row.roles,
    aal: row.aal,
    kind: 'session',
    apiKeyId: null,
    tier: row.tier ?? 'standard',
    scopes: sessionScopes,
    authenticatedAt: lastAuthenticationOf(row.amr),
    amr: row.amr,
  };
}

async function loadApiKeyCaller(deps: Pick<AuthDeps, 'db' | 'now'>, keyHash: string): Promise<Principal> {
  const [row] = await deps.db
    .select({
      id: schema.apiKeys.id,
      userId: schema.apiKeys.userId,
      scopes: schema.apiKeys.scopes,
      tier: schema.apiAccessTiers.tier,
    })
    .from(schema.apiKeys)
    .leftJoin(schema.apiAccessTiers, eq(schema.apiAccessTiers.userId, schema.apiKeys.userId))
    .where(eq(schema.apiKeys.keyHash, keyHash));
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
  // API keys carry no staff roles: staff actions need a signed-in session.
  return {
    userId: row.userId,
    roles: [],
    aal: 'aal1',
    kind: 'api_key',
    apiKeyId: row.id,
    tier: row.tier ?? 'standard',
    scopes: row.scopes,
    authenticatedAt: null,
    amr: [],
  };
}
