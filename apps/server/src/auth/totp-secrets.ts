import { type Db, schema } from '@covenant/db';
import { and, eq, like, not } from 'drizzle-orm';
import { isSealedText, openSealedText, sealText } from '../files/seal-text.js';

/** Sealed under the factor's id: a secret copied onto another user's factor does not open. */
const contextOf = (factorId: string) => `totp:${factorId}`;

/** What `mfa_factors.secret` holds for a new factor (ASVS 2.8.2, ADR 018). */
export function sealTotpSecret(masterKey: Buffer, factorId: string, secret: string): string {
  return sealText(masterKey, secret, contextOf(factorId));
}

/** The base32 secret of a factor; a row not sealed yet (see `sealClearTotpSecrets`) holds it as it is. */
export function openTotpSecret(masterKey: Buffer, factor: { id: string; secret: string }): string {
  return isSealedText(factor.secret)
    ? openSealedText(masterKey, factor.secret, contextOf(factor.id))
    : factor.secret;
}

/**
 * Seals every secret still in clear: factors enrolled before secrets were sealed, and the demo staff
 * factors the seed writes. Runs at each start, after the seed; SQL migrations cannot do it, as the
 * master key is the server's, never the database's. Each row is only changed if it still holds the
 * clear text read, so replicas starting together do not seal a secret twice. Returns how many it sealed.
 */
export async function sealClearTotpSecrets(db: Db, masterKey: Buffer): Promise<number> {
  const { mfaFactors } = schema;
  const clear = await db
    .select({ id: mfaFactors.id, secret: mfaFactors.secret })
    .from(mfaFactors)
    .where(not(like(mfaFactors.secret, 'sealed:%')));
  let sealed = 0;
  for (const factor of clear) {
    const updated = await db
      .update(mfaFactors)
      .set({ secret: sealTotpSecret(masterKey, factor.id, factor.secret) })
      .where(and(eq(mfaFactors.id, factor.id), eq(mfaFactors.secret, factor.secret)))
      .returning({ id: mfaFactors.id });
    sealed += updated.length;
  }
  return sealed;
}
