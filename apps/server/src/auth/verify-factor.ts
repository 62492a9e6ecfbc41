import { schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import { verify } from 'otplib';
import type { AuthDeps } from './auth-deps.js';
import { AuthError, sessionNotFound } from './auth-error.js';
import type { AuthenticatedRequest } from './authenticate-request.js';
import { findOwnFactor } from './find-own-factor.js';
import { issueSessionResponse, type SessionResponse } from './issue-session-response.js';
import { loadUserAccountById } from './load-user-account.js';
import { generateOpaqueToken } from './opaque-tokens.js';
import { enforceRateLimit } from './rate-limits.js';
import { replaceRefreshTokens } from './replace-refresh-tokens.js';
import { openTotpSecret } from './totp-secrets.js';

/** Codes of the neighbouring 30-second steps are accepted too: phone clocks drift. */
const clockToleranceSeconds = 30;

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
    throw new AuthError(
      422,
      'mfa_challenge_expired',
      `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new factor.`,
    );
  }
  const secret = openTotpSecret(deps.fileMasterKey, factor);
  const timeStep = await checkTotpCode(secret, input.code, factor.lastTimeStep, now);
  if (timeStep === undefined)
    throw new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');

  const refreshToken = generateOpaqueToken();
  const session = await deps.db.transaction(async (tx) => {
    await tx
      .update(schema.mfaChallenges)
      .set({ verifiedAt: now })
      .where(eq(schema.mfaChallenges.id, challenge.id));
    await tx
      .update(schema.mfaFactors)
      .set({ status: 'verified', lastTimeStep: timeStep, updatedAt: now })
      .where(eq(schema.mfaFactors.id, factor.id));
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

/** The time step the code belongs to, or undefined when it is wrong or was already used. */
export async function checkTotpCode(
  secret: string,
  code: string,
  lastTimeStep: number | null,
  now: Date,
): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: clockToleranceSeconds,
    afterTimeStep: lastTimeStep ?? undefined,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}
