import { type Db, schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import { AuthError } from './auth-error.js';
import type { FactorRow } from './load-user-account.js';

/** The caller's factor `factorId`; someone else's factor is as unknown as a missing one. */
export async function findOwnFactor(db: Db, userId: string, factorId: string): Promise<FactorRow> {
  const [factor] = await db
    .select()
    .from(schema.mfaFactors)
    .where(and(eq(schema.mfaFactors.id, factorId), eq(schema.mfaFactors.userId, userId)));
  if (!factor) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
  return factor;
}
