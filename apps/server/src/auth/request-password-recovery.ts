import type { AuthDeps } from './auth-deps.js';
import { findUserByEmail } from './find-user-by-email.js';
import { networkOfAddress } from './network-of-address.js';
import { enforceRateLimit } from './rate-limits.js';
import { resolveRedirect } from './resolve-redirect.js';
import { sendOneTimeToken } from './send-one-time-token.js';
import type { ClientInfo } from './start-session.js';

/**
 * `POST /recover`: e-mails a password recovery link when the account exists. The answer is the same
 * either way, and the looking up and sending happen after it, so neither its content nor its timing
 * tells which addresses have accounts.
 */
export async function requestPasswordRecovery(
  deps: AuthDeps,
  input: { email: string; redirectTo: string | undefined },
  client: ClientInfo,
): Promise<void> {
  await enforceRateLimit(deps, deps.rateLimits.emailPerIp, `email:ip:${networkOfAddress(client.ip)}`);
  await enforceRateLimit(deps, deps.rateLimits.emailPerAccount, `email:address:${input.email}`);
  const redirectTo = resolveRedirect(deps.config.publicUrl, input.redirectTo);
  deps.background.run('password recovery e-mail', async () => {
    const user = await findUserByEmail(deps.db, input.email);
    if (user) await sendOneTimeToken(deps, { user, type: 'recovery', to: user.email, redirectTo });
  });
}
