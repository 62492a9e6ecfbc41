import { randomUUID } from 'node:crypto';
import { schema } from '@covenant/db';
import { and, eq, lt } from 'drizzle-orm';
import { generateSecret, generateURI } from 'otplib';
import QRCode from 'qrcode';
import type { AuthDeps } from './auth-deps.js';
import { AuthError, sessionNotFound } from './auth-error.js';
import type { AuthenticatedRequest } from './authenticate-request.js';
import { sealTotpSecret } from './totp-secrets.js';
import { isUniqueViolation } from './unique-violation.js';

export interface TotpEnrollment {
  id: string;
  type: 'totp';
  friendly_name: string | undefined;
  totp: { qr_code: string; secret: string; uri: string };
}

/** GoTrue's default cap on factors per user. */
const maximumFactors = 10;
/** Enrolments never verified are abandoned after a day and cleared on the next enrolment. */
const abandonedEnrolmentSeconds = 24 * 3600;

/**
 * `POST /factors` with `factor_type: totp`: creates an unverified TOTP factor and returns its secret,
 * the otpauth URI and that URI as a QR code (raw SVG, which `@supabase/auth-js` turns into a data URL).
 */
export async function enrollTotpFactor(
  deps: AuthDeps,
  caller: AuthenticatedRequest,
  input: { factorType: string; friendlyName: string | undefined; issuer: string | undefined },
): Promise<TotpEnrollment> {
  if (input.factorType !== 'totp') {
    const code =
      input.factorType === 'phone' ? 'mfa_phone_enroll_not_enabled' : 'mfa_webauthn_enroll_not_enabled';
    throw new AuthError(422, code, `MFA enroll is disabled for ${input.factorType}`);
  }
  const { mfaFactors } = schema;
  const now = deps.now();
  await deps.db
    .delete(mfaFactors)
    .where(
      and(
        eq(mfaFactors.userId, caller.userId),
        eq(mfaFactors.status, 'unverified'),
        lt(mfaFactors.createdAt, new Date(now.getTime() - abandonedEnrolmentSeconds * 1000)),
      ),
    );
  const factors = await deps.db.select().from(mfaFactors).where(eq(mfaFactors.userId, caller.userId));
  if (factors.some((factor) => factor.status === 'verified') && caller.aal !== 'aal2') {
    throw new AuthError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
  }
  if (factors.length >= maximumFactors) {
    throw new AuthError(
      422,
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    );
  }
  const [user] = await deps.db.select().from(schema.users).where(eq(schema.users.id, caller.userId));
  if (!user) throw sessionNotFound();

  const secret = generateSecret();
  const uri = generateURI({ issuer: input.issuer || 'Covenant', label: user.email, secret });
  // The id is chosen here because the sealed secret is bound to it.
  const factorId = randomUUID();
  const [factor] = await deps.db
    .insert(mfaFactors)
    .values({
      id: factorId,
      userId: caller.userId,
      friendlyName: input.friendlyName || null,
      factorType: 'totp',
      secret: sealTotpSecret(deps.fileMasterKey, factorId, secret),
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .catch((error: unknown) => {
      if (isUniqueViolation(error, 'mfa_factors_user_friendly_name_idx')) {
        throw new AuthError(
          422,
          'mfa_factor_name_conflict',
          `A factor with the friendly name "${input.friendlyName}" for this user already exists`,
        );
      }
      throw error;
    });
  return {
    id: factor!.id,
    type: 'totp',
    friendly_name: factor!.friendlyName ?? undefined,
    totp: { qr_code: await QRCode.toString(uri, { type: 'svg' }), secret, uri },
  };
}
