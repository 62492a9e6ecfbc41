import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import type { AuthenticatedRequest } from './authenticate-request.js';
import { findOwnFactor } from './find-own-factor.js';
import { enforceRateLimit } from './rate-limits.js';

/** How long a challenge can be answered (GoTrue's default). */
export const challengeLifetimeSeconds = 300;

/** `POST /factors/{id}/challenge`: opens a challenge that a TOTP code then answers. */
export async function challengeFactor(
  deps: AuthDeps,
  caller: AuthenticatedRequest,
  factorId: string,
  ip: string,
): Promise<{ id: string; type: 'totp'; expires_at: number }> {
  await enforceRateLimit(deps, deps.rateLimits.mfaChallengePerUser, `mfa-challenge:user:${caller.userId}`);
  const factor = await findOwnFactor(deps.db, caller.userId, factorId);
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + challengeLifetimeSeconds * 1000);
  const [challenge] = await deps.db
    .insert(schema.mfaChallenges)
    .values({ factorId: factor.id, ip, expiresAt, createdAt: now })
    .returning({ id: schema.mfaChallenges.id });
  await deps.db
    .update(schema.mfaFactors)
    .set({ lastChallengedAt: now })
    .where(eq(schema.mfaFactors.id, factor.id));
  return { id: challenge!.id, type: 'totp', expires_at: Math.floor(expiresAt.getTime() / 1000) };
}
