import { type Db, schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import { type AccessRefusal, lastAuthenticationOf, refuseStaleSession } from '../api/access.js';
import type { Transaction } from '../deals/append-deal-event.js';

/**
 * A session of a user with a verified second factor proves its user for sensitive actions only by a
 * TOTP code within the window (ADR 038): a password, an e-mailed code or a recovery link alone is
 * refused (`reauthentication_needed`). Undefined for a user without one (their latest proof of any
 * kind counts, checked by the access rule) and for a recent enough TOTP proof. One read.
 */
export async function refuseWithoutRecentTotp(
  db: Db | Transaction,
  session: { userId: string; amr: Parameters<typeof lastAuthenticationOf>[0] },
  now: Date,
  windowSeconds: number,
): Promise<AccessRefusal | undefined> {
  const [factor] = await db
    .select({ id: schema.mfaFactors.id })
    .from(schema.mfaFactors)
    .where(and(eq(schema.mfaFactors.userId, session.userId), eq(schema.mfaFactors.status, 'verified')))
    .limit(1);
  if (!factor) return undefined;
  return refuseStaleSession(
    { kind: 'session', authenticatedAt: lastAuthenticationOf(session.amr, true) },
    now,
    windowSeconds,
  );
}
