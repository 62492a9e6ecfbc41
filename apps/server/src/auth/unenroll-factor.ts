import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import { AuthError } from './auth-error.js';
import type { AuthenticatedRequest } from './authenticate-request.js';
import { findOwnFactor } from './find-own-factor.js';

/**
 * `DELETE /factors/{id}`. Removing a verified factor takes an aal2 session, or a stolen password
 * alone could switch the second factor off. Sessions raised by that factor fall back to aal1.
 */
export async function unenrollFactor(
  deps: AuthDeps,
  caller: AuthenticatedRequest,
  factorId: string,
): Promise<{ id: string }> {
  const factor = await findOwnFactor(deps.db, caller.userId, factorId);
  if (factor.status === 'verified' && caller.aal !== 'aal2') {
    throw new AuthError(403, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
  }
  await deps.db.transaction(async (tx) => {
    await tx.delete(schema.mfaFactors).where(eq(schema.mfaFactors.id, factor.id));
    await tx
      .update(schema.sessions)
      .set({ aal: 'aal1', factorId: null })
      .where(eq(schema.sessions.factorId, factor.id));
  });
  return { id: factor.id };
}
