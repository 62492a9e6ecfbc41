import { schema } from '@covenant/db';
import { and, eq, gte, isNull } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import { AuthError, sessionNotFound } from './auth-error.js';
import type { AuthenticatedRequest } from './authenticate-request.js';
import { checkTotpCode, claimTotpTimeStep, invalidTotpCode } from './check-totp-code.js';
import { findOwnFactor } from './find-own-factor.js';
import { issueSessionResponse, type SessionResponse } from './issue-session-response.js';
import { loadUserAccountById } from './load-user-account.js';
import { generateOpaqueToken } from './opaque-tokens.js';
import { enforceRateLimit } from './rate-limits.js';
import { replaceRefreshTokens } from './replace-refresh-tokens.js';
import { openTotpSecret } from './totp-secrets.js';

/**
 * `POST /factors/{id}/verify`: checks a TOTP code against an open challenge. The factor becomes
 * verified and the caller's session is raised to aal2 with fresh tokens (the old refresh tokens
 * of the session are revoked: they stood for a weaker session).
 */
export async function verifyFactor(
  deps: AuthDeps,
  caller: AuthenticatedRequest,
  factorId: string,
  input: { challengeId: string; code: string },
): Promise<SessionResponse> {
  await enforceRateLimit(deps, deps.rateLimits.mfaVerifyPerUser, `mfa-verify:user:${caller.userId}`);
  const factor = await findOwnFactor(deps.db, caller.userId, factorId);
  const [challenge] = await deps.db
    .select()
    .from(schema.mfaChallenges)
    .where(and(eq(schema.mfaChallenges.id, input.challengeId), eq(schema.mfaChallenges.factorId, factor.id)));
  if (!challenge) {
    throw new AuthError(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
  }
  const now = deps.now();
  if (challenge.verifiedAt || challenge.expiresAt.getTime() < now.getTime()) {
    await deps.db.delete(schema.mfaChallenges).where(eq(schema.mfaChallenges.id, challenge.id));
    throw challengeExpired(challenge.id);
  }
  const secret = openTotpSecret(deps.fileMasterKey, factor);
  const timeStep = await checkTotpCode(secret, input.code, factor.lastTimeStep, now);
  if (timeStep === undefined) throw invalidTotpCode();

  const refreshToken = generateOpaqueToken();
  const session = await deps.db.transaction(async (tx) => {
    // What was read above may be stale by now: the challenge and the code's time step are each
    // claimed by a conditional write, so of concurrent requests only one gets through.
    const claimed = await tx
      .update(schema.mfaChallenges)
      .set({ verifiedAt: now })
      .where(
        and(
          eq(schema.mfaChallenges.id, challenge.id),
          isNull(schema.mfaChallenges.verifiedAt),
          gte(schema.mfaChallenges.expiresAt, now),
        ),
      )
      .returning({ id: schema.mfaChallenges.id });
    if (claimed.length === 0) throw challengeExpired(challenge.id);
    await claimTotpTimeStep(tx, { id: factor.id, timeStep }, { now, verify: true });
    const [current] = await tx.select().from(schema.sessions).where(eq(schema.sessions.id, caller.sessionId));
    if (!current) return undefined;
    const amr = [
      ...current.amr.filter((entry) => entry.method !== 'totp'),
      { method: 'totp', timestamp: Math.floor(now.getTime() / 1000) },
    ];
    const [raised] = await tx
      .update(schema.sessions)
      .set({ aal: 'aal2', amr, factorId: factor.id, refreshedAt: now })
      .where(eq(schema.sessions.id, current.id))
      .returning();
    await replaceRefreshTokens(tx, current.id, refreshToken, now);
    return raised;
  });
  const account = session && (await loadUserAccountById(deps.db, caller.userId));
  if (!session || !account) throw sessionNotFound();
  return issueSessionResponse(deps, account, session, refreshToken);
}

function challengeExpired(challengeId: string): AuthError {
  return new AuthError(
    422,
    'mfa_challenge_expired',
    `MFA challenge ${challengeId} has expired, verify against another challenge or create a new factor.`,
  );
}
