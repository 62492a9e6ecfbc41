import type { AuthDeps } from './auth-deps.js';
import { AuthError, invalidCredentials } from './auth-error.js';
import { findUserByEmail } from './find-user-by-email.js';
import { verifyPassword, verifyPasswordOfUnknownAccount } from './hash-password.js';
import type { SessionResponse } from './issue-session-response.js';
import { loadUserAccount } from './load-user-account.js';
import { enforceRateLimit } from './rate-limits.js';
import { type ClientInfo, startSession } from './start-session.js';

/** `POST /token?grant_type=password` and the public API's login: e-mail and password to a session. */
export async function signInWithPassword(
  deps: AuthDeps,
  input: { email: string; password: string },
  client: ClientInfo,
): Promise<SessionResponse> {
  await enforceRateLimit(deps, deps.rateLimits.signInPerIp, `signin:ip:${client.ip}`);
  await enforceRateLimit(deps, deps.rateLimits.signInPerAccount, `signin:email:${input.email}`);
  const user = await findUserByEmail(deps.db, input.email);
  const passwordMatches = user?.passwordHash
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyPasswordOfUnknownAccount(input.password);
  if (!user || !passwordMatches) throw invalidCredentials();
  if (deps.config.auth.requireEmailConfirmation && !user.emailConfirmedAt) {
    throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
  }
  return startSession(deps, await loadUserAccount(deps.db, user), 'password', client);
}
