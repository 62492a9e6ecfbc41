import { schema } from '@covenant/db';
import { and, eq, ne } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import type { AuthenticatedRequest } from './authenticate-request.js';
import { cancelPendingEmailChange } from './cancel-pending-email-change.js';

export type SignOutScope = 'global' | 'local' | 'others';

/**
 * Ends sessions of the caller: this one (`local`), every one (`global`) or all but this one
 * (`others`). Their refresh tokens go with them; access tokens already issued run out on their own.
 * A global sign-out also cancels a pending e-mail change: it is how an owner throws an intruder out,
 * and the intruder's change link would otherwise still take the account.
 */
export async function signOut(
  deps: Pick<AuthDeps, 'db' | 'now'>,
  caller: AuthenticatedRequest,
  scope: SignOutScope,
): Promise<void> {
  const { sessions } = schema;
  const where = {
    local: eq(sessions.id, caller.sessionId),
    global: eq(sessions.userId, caller.userId),
    others: and(eq(sessions.userId, caller.userId), ne(sessions.id, caller.sessionId)),
  }[scope];
  await deps.db.transaction(async (tx) => {
    await tx.delete(sessions).where(where);
    if (scope === 'global') await cancelPendingEmailChange(tx, caller.userId, deps.now());
  });
}
