import { schema } from '@covenant/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import { AuthError } from './auth-error.js';
import { issueSessionResponse, type SessionResponse } from './issue-session-response.js';
import { loadUserAccountById } from './load-user-account.js';
import { networkOfAddress } from './network-of-address.js';
import { deriveChildToken, generateOpaqueToken, hashOpaqueToken } from './opaque-tokens.js';
import { enforceRateLimit } from './rate-limits.js';
import type { ClientInfo } from './start-session.js';

type RefreshTokenRow = typeof schema.refreshTokens.$inferSelect;

const refreshTokenNotFound = () =>
  new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');

/** A rotation chain is walked at most this deep when a parent token is presented again. */
const maximumChainWalk = 20;

/**
 * `POST /token?grant_type=refresh_token`: swaps a refresh token for a new one and a fresh access
 * token. A token already swapped is answered with the session's current token while inside the reuse
 * interval (the client likely lost the first answer); later it counts as theft and ends the session.
 */
export async function refreshSession(
  deps: AuthDeps,
  refreshToken: string,
  client: ClientInfo,
): Promise<SessionResponse> {
  await enforceRateLimit(deps, deps.rateLimits.refreshPerIp, `refresh:ip:${networkOfAddress(client.ip)}`);
  const [presented] = await deps.db
    .select()
    .from(schema.refreshTokens)
    .where(eq(schema.refreshTokens.tokenHash, hashOpaqueToken(refreshToken)));
  if (!presented) throw refreshTokenNotFound();

  const current =
    (presented.revokedAt === null && (await rotate(deps, presented, refreshToken))) ||
    (await findCurrentDescendant(deps, presented, refreshToken));

  const [session] = await deps.db
    .select()
    .from(schema.sessions)
    .where(eq(schema.sessions.id, presented.sessionId));
  const account = session && (await loadUserAccountById(deps.db, session.userId));
  if (!session || !account) throw refreshTokenNotFound();
  return issueSessionResponse(deps, account, session, current);
}

/** Revokes `row` and stores its child; undefined when a concurrent request rotated it first. */
async function rotate(deps: AuthDeps, row: RefreshTokenRow, token: string): Promise<string | undefined> {
  const now = deps.now();
  const salt = generateOpaqueToken();
  const child = deriveChildToken(token, salt);
  const rotated = await deps.db.transaction(async (tx) => {
    const revoked = await tx
      .update(schema.refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(schema.refreshTokens.id, row.id), isNull(schema.refreshTokens.revokedAt)))
      .returning({ id: schema.refreshTokens.id });
    if (revoked.length === 0) return false;
    await tx.insert(schema.refreshTokens).values({
      sessionId: row.sessionId,
      tokenHash: hashOpaqueToken(child),
      parentId: row.id,
      salt,
      createdAt: now,
    });
    await tx.update(schema.sessions).set({ refreshedAt: now }).where(eq(schema.sessions.id, row.sessionId));
    return true;
  });
  return rotated ? child : undefined;
}

async function findCurrentDescendant(deps: AuthDeps, row: RefreshTokenRow, token: string): Promise<string> {
  const [revoked] = await deps.db
    .select()
    .from(schema.refreshTokens)
    .where(eq(schema.refreshTokens.id, row.id));
  if (!revoked?.revokedAt) throw refreshTokenNotFound();
  const reuseUntil = revoked.revokedAt.getTime() + deps.config.auth.refreshReuseIntervalSeconds * 1000;
  if (deps.now().getTime() > reuseUntil) {
    await deps.db.delete(schema.sessions).where(eq(schema.sessions.id, row.sessionId));
    throw new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
  }
  let ancestor = revoked;
  let ancestorToken = token;
  for (let depth = 0; depth < maximumChainWalk; depth++) {
    const [child] = await deps.db
      .select()
      .from(schema.refreshTokens)
      .where(eq(schema.refreshTokens.parentId, ancestor.id));
    if (!child?.salt) break;
    const childToken = deriveChildToken(ancestorToken, child.salt);
    if (child.revokedAt === null) return childToken;
    ancestor = child;
    ancestorToken = childToken;
  }
  throw refreshTokenNotFound();
}
