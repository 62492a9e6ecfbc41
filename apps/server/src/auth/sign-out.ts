import { schema } from '@covenant/db';
import { and, eq, ne } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import type { AuthenticatedRequest } from './authenticate-request.js';

export type SignOutScope = 'global' | 'local' | 'others';

/**
 * Ends sessions of the caller: this one (`local`), every one (`global`) or all but this one
 * (`others`). Their refresh tokens go with them; access tokens already issued run out on their own.
 */
export async function signOut(
  deps: Pick<AuthDeps, 'db'>,
  caller: AuthenticatedRequest,
  scope: SignOutScope,
): Promise<void> {
  const { sessions } = schema;
  const where = {
    local: eq(sessions.id, caller.sessionId),
    global: eq(sessions.userId, caller.userId),
    others: and(eq(sessions.userId, caller.userId), ne(sessions.id, caller.sessionId)),
  }[scope];
  await deps.db.delete(sessions).where(where);
}
