import { type Db, schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';

/**
 * Drops an e-mail change not yet confirmed, with its link. Called where the owner takes the account
 * back (a password change or recovery, a global sign-out): a change asked for by whoever held the
 * account before must not complete afterwards, as the new address's link would hand it over.
 */
export async function cancelPendingEmailChange(tx: Db, userId: string, now: Date): Promise<void> {
  const { users, oneTimeTokens } = schema;
  await tx
    .update(users)
    .set({ newEmail: null, emailChangeSentAt: null, updatedAt: now })
    .where(eq(users.id, userId));
  await tx
    .delete(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.type, 'email_change')));
}
