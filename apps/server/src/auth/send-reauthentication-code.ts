import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import { sessionNotFound } from './auth-error.js';
import type { AuthenticatedRequest } from './authenticate-request.js';
import { enforceRateLimit } from './rate-limits.js';
import { sendOneTimeToken } from './send-one-time-token.js';

/** `GET /reauthenticate`: e-mails the caller a code to pass as `nonce` with a password change. */
export async function sendReauthenticationCode(deps: AuthDeps, caller: AuthenticatedRequest): Promise<void> {
  await enforceRateLimit(deps, deps.rateLimits.emailPerAccount, `email:user:${caller.userId}`);
  const [user] = await deps.db.select().from(schema.users).where(eq(schema.users.id, caller.userId));
  if (!user) throw sessionNotFound();
  await sendOneTimeToken(deps, {
    user,
    type: 'reauthentication',
    to: user.email,
    redirectTo: deps.config.publicUrl,
  });
}
