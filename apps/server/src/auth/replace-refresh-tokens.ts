import { type Db, schema } from '@covenant/db';
import { and, eq, isNull } from 'drizzle-orm';
import { hashOpaqueToken } from './opaque-tokens.js';

/**
 * Revokes every live refresh token of a session and stores the new one: once a session proves more
 * (a factor, a reauthentication), tokens handed out before that proof must not renew it.
 */
export async function replaceRefreshTokens(
  tx: Db,
  sessionId: string,
  refreshToken: string,
  now: Date,
): Promise<void> {
  await tx
    .update(schema.refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(schema.refreshTokens.sessionId, sessionId), isNull(schema.refreshTokens.revokedAt)));
  await tx
    .insert(schema.refreshTokens)
    .values({ sessionId, tokenHash: hashOpaqueToken(refreshToken), createdAt: now });
}
