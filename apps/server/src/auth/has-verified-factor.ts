import { type Db, schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';

/** Whether the user has a verified second factor: then only a TOTP code proves them for sensitive actions. */
export async function hasVerifiedFactor(db: Db, userId: string): Promise<boolean> {
  const [factor] = await db
    .select({ id: schema.mfaFactors.id })
    .from(schema.mfaFactors)
    .where(and(eq(schema.mfaFactors.userId, userId), eq(schema.mfaFactors.status, 'verified')))
    .limit(1);
  return factor !== undefined;
}
