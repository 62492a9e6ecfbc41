import { schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import { invalidCredentials, sessionNotFound, validationFailed } from './auth-error.js';
import type { AuthenticatedRequest } from './authenticate-request.js';
import { checkTotpCode, claimTotpTimeStep, invalidTotpCode } from './check-totp-code.js';
import { verifyPassword } from './hash-password.js';
import { issueSessionResponse, type SessionResponse } from './issue-session-response.js';
import { loadUserAccountById } from './load-user-account.js';
import { generateOpaqueToken } from './opaque-tokens.js';
import { enforceRateLimit } from './rate-limits.js';
import { replaceRefreshTokens } from './replace-refresh-tokens.js';
import { throttleSignIn } from './throttle-sign-in.js';
import { openTotpSecret } from './totp-secrets.js';

export interface ReauthenticationProof {
  password: string;
  /** A current code of one of the user's verified TOTP factors; required when there is one. */
  code: string | undefined;
}

/**
 * `POST /reauthenticate` (ADR 013): the signed-in user proves again who they are — the password,
 * and a TOTP code when the account has a verified factor — so the session may do sensitive actions
 * for the reauthentication window. Throttled like a password sign-in, counted per session as a known
 * device, so a stolen session cannot guess the password faster than a sign-in could. The session's
 * `amr` records the new proofs; it gets fresh tokens (the old refresh tokens are revoked).
 */
export async function reauthenticateSession(
  deps: AuthDeps,
  caller: AuthenticatedRequest,
  proof: ReauthenticationProof,
  client: { ip: string },
): Promise<SessionResponse> {
  const [user] = await deps.db.select().from(schema.users).where(eq(schema.users.id, caller.userId));
  if (!user) throw sessionNotFound();
  const factors = await deps.db
    .select()
    .from(schema.mfaFactors)
    .where(and(eq(schema.mfaFactors.userId, user.id), eq(schema.mfaFactors.status, 'verified')));
  if (factors.length > 0 && !proof.code) {
    throw validationFailed('code required: the account has a second factor');
  }

  const attempt = await throttleSignIn(deps, {
    email: user.email.toLowerCase(),
    address: client.ip,
    knownDeviceId: `session-${caller.sessionId}`,
  });
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, proof.password))) {
    throw invalidCredentials();
  }
  const now = deps.now();
  let verified: { factorId: string; timeStep: number } | undefined;
  if (factors.length > 0) {
    await enforceRateLimit(deps, deps.rateLimits.mfaVerifyPerUser, `mfa-verify:user:${user.id}`);
    for (const factor of factors) {
      const secret = openTotpSecret(deps.fileMasterKey, factor);
      const timeStep = await checkTotpCode(secret, proof.code!, factor.lastTimeStep, now);
      if (timeStep !== undefined) verified = { factorId: factor.id, timeStep };
    }
    if (!verified) throw invalidTotpCode();
  }
  await attempt.succeeded();

  const provedAt = Math.floor(now.getTime() / 1000);
  const methods = verified ? ['password', 'totp'] : ['password'];
  const refreshToken = generateOpaqueToken();
  const session = await deps.db.transaction(async (tx) => {
    const [current] = await tx.select().from(schema.sessions).where(eq(schema.sessions.id, caller.sessionId));
    if (!current) return undefined;
    // The step read above may be stale: a concurrent request with the same code claims it first.
    if (verified)
      await claimTotpTimeStep(tx, { id: verified.factorId, timeStep: verified.timeStep }, { now });
    const amr = [
      ...current.amr.filter((entry) => !methods.includes(entry.method)),
      ...methods.map((method) => ({ method, timestamp: provedAt })),
    ];
    const [renewed] = await tx
      .update(schema.sessions)
      .set({
        amr,
        refreshedAt: now,
        ...(verified ? { aal: 'aal2' as const, factorId: verified.factorId } : {}),
      })
      .where(eq(schema.sessions.id, current.id))
      .returning();
    await replaceRefreshTokens(tx, current.id, refreshToken, now);
    return renewed;
  });
  const account = session && (await loadUserAccountById(deps.db, user.id));
  if (!session || !account) throw sessionNotFound();
  return issueSessionResponse(deps, account, session, refreshToken);
}
