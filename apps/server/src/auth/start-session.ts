import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import { issueSessionResponse, type SessionResponse } from './issue-session-response.js';
import type { UserAccount } from './load-user-account.js';
import { generateOpaqueToken, hashOpaqueToken } from './opaque-tokens.js';

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

/**
 * Signs `account` in on a new device: a session at aal1 remembering how the user proved who they
 * are (`method` becomes the session's first `amr` entry), its first refresh token, and the tokens.
 */
export async function startSession(
  deps: AuthDeps,
  account: UserAccount,
  method: string,
  client: ClientInfo,
): Promise<SessionResponse> {
  const now = deps.now();
  const refreshToken = generateOpaqueToken();
  const session = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(schema.sessions)
      .values({
        userId: account.user.id,
        aal: 'aal1',
        amr: [{ method, timestamp: Math.floor(now.getTime() / 1000) }],
        ip: client.ip,
        userAgent: client.userAgent?.slice(0, 512),
        createdAt: now,
      })
      .returning();
    await tx
      .insert(schema.refreshTokens)
      .values({ sessionId: created!.id, tokenHash: hashOpaqueToken(refreshToken), createdAt: now });
    await tx.update(schema.users).set({ lastSignInAt: now }).where(eq(schema.users.id, account.user.id));
    return created!;
  });
  const signedIn = { ...account, user: { ...account.user, lastSignInAt: now } };
  return issueSessionResponse(deps, signedIn, session, refreshToken);
}
