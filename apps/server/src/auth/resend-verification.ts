import type { AuthDeps } from './auth-deps.js';
import { findUserByEmail } from './find-user-by-email.js';
import { networkOfAddress } from './network-of-address.js';
import { enforceRateLimit } from './rate-limits.js';
import { resolveRedirect } from './resolve-redirect.js';
import { sendOneTimeToken } from './send-one-time-token.js';
import type { ClientInfo } from './start-session.js';

/**
 * `POST /resend`: sends the sign-up confirmation again (account not yet confirmed) or the e-mail
 * change confirmation again (to the pending new address; `email` is the current one). Silent when
 * there is nothing to resend, and done after the answer, like `/recover`.
 */
export async function resendVerification(
  deps: AuthDeps,
  input: { type: 'signup' | 'email_change'; email: string; redirectTo: string | undefined },
  client: ClientInfo,
): Promise<void> {
  await enforceRateLimit(deps, deps.rateLimits.emailPerIp, `email:ip:${networkOfAddress(client.ip)}`);
  await enforceRateLimit(deps, deps.rateLimits.emailPerAccount, `email:address:${input.email}`);
  const redirectTo = resolveRedirect(deps.config.publicUrl, input.redirectTo);
  deps.background.run(`${input.type} confirmation e-mail`, async () => {
    const user = await findUserByEmail(deps.db, input.email);
    if (input.type === 'signup' && user && !user.emailConfirmedAt) {
      await sendOneTimeToken(deps, { user, type: 'signup', to: user.email, redirectTo });
    }
    if (input.type === 'email_change' && user?.newEmail) {
      await sendOneTimeToken(deps, { user, type: 'email_change', to: user.newEmail, redirectTo });
    }
  });
}
