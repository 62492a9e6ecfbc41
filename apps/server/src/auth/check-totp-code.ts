import { type Db, schema } from '@covenant/db';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { verify } from 'otplib';
import { AuthError } from './auth-error.js';

/** Codes of the neighbouring 30-second steps are accepted too: phone clocks drift. */
const clockToleranceSeconds = 30;

/**
 * The time step the code belongs to, or undefined when it is wrong or was already used. Whatever
 * otplib refuses by throwing (a last step ahead of the clock, a malformed secret) is a wrong code
 * too: the caller answers it like one, never with a 500.
 */
export async function checkTotpCode(
  secret: string,
  code: string,
  lastTimeStep: number | null,
  now: Date,
): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  try {
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(now.getTime() / 1000),
      epochTolerance: clockToleranceSeconds,
      afterTimeStep: lastTimeStep ?? undefined,
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records `timeStep` as the factor's last accepted one, only if it is later than the one stored:
 * of requests checking the same code at once (each read the old step), exactly one claims it and
 * the others are refused as a reused code. Run inside the transaction that acts on the proof.
 */
export async function claimTotpTimeStep(
  tx: Db,
  factor: { id: string; timeStep: number },
  changes: { now: Date; verify?: boolean },
): Promise<void> {
  const { mfaFactors } = schema;
  const claimed = await tx
    .update(mfaFactors)
    .set({
      lastTimeStep: factor.timeStep,
      updatedAt: changes.now,
      ...(changes.verify ? { status: 'verified' as const } : {}),
    })
    .where(
      and(
        eq(mfaFactors.id, factor.id),
        or(isNull(mfaFactors.lastTimeStep), lt(mfaFactors.lastTimeStep, factor.timeStep)),
      ),
    )
    .returning({ id: mfaFactors.id });
  if (claimed.length === 0) throw invalidTotpCode();
}

export function invalidTotpCode(): AuthError {
  return new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
}
