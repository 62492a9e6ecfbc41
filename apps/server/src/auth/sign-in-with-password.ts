import { schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import { AuthError, invalidCredentials } from './auth-error.js';
import { findKnownDevice, issueDeviceToken } from './device-token.js';
import { verifyPassword, verifyPasswordOfUnknownAccount } from './hash-password.js';
import type { SessionResponse } from './issue-session-response.js';
import { linkPendingIdentity } from './link-pending-identity.js';
import { findUserAccountByEmail, loadUserAccount } from './load-user-account.js';
import { type ClientInfo, startSession } from './start-session.js';
import { throttleSignIn } from './throttle-sign-in.js';

export interface PasswordSignIn {
  session: SessionResponse;
  /** A fresh device token for the browser (ADR 012): its next attempts count on their own. */
  deviceToken: { userId: string; token: string };
  /** Whether the sign-in completed a pending provider identity link (its cookie can go). */
  linkedIdentity: boolean;
}

/**
 * `POST /token?grant_type=password` and the public API's login: e-mail and password to a session.
 * `deviceTokens` are the device tokens the client holds, of any account; `identityLinkToken` a
 * pending Google link of this browser (ADR 023), completed when it waits for this very account.
 */
export async function signInWithPassword(
  deps: AuthDeps,
  input: {
    email: string;
    password: string;
    deviceTokens: readonly string[];
    identityLinkToken?: string | undefined;
  },
  client: ClientInfo,
): Promise<PasswordSignIn> {
  // The account (roles, whether there are factors) is read with the user, in one round trip; it
  // is used only once the password has been checked.
  const found = await findUserAccountByEmail(deps.db, input.email);
  const knownDeviceId = await findKnownDevice(deps, input.deviceTokens, found?.user.id);
  const attempt = await throttleSignIn(deps, { email: input.email, address: client.ip, knownDeviceId });
  // An unconfirmed account's password still waits on its sign-up token: right, it is only told
  // that the address needs confirming, and it never signs in before the link installs it.
  const pendingPasswordHash =
    found && !found.user.passwordHash && !found.user.emailConfirmedAt
      ? await findPendingSignUpPassword(deps, found.user.id)
      : null;
  const passwordHash = found?.user.passwordHash ?? pendingPasswordHash;
  const passwordMatches = passwordHash
    ? await verifyPassword(passwordHash, input.password)
    : await verifyPasswordOfUnknownAccount(input.password);
  if (!found || !passwordMatches) throw invalidCredentials();
  const { user } = found;
  await attempt.succeeded();
  if (pendingPasswordHash || (deps.config.auth.requireEmailConfirmation && !user.emailConfirmedAt)) {
    throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
  }
  const linkedIdentity = input.identityLinkToken
    ? await linkPendingIdentity(deps, input.identityLinkToken, user)
    : false;
  // A link just made added an identity the account read before it does not have.
  const account = linkedIdentity ? await loadUserAccount(deps.db, user) : await found.account();
  const session = await startSession(deps, account, 'password', client);
  return {
    session,
    deviceToken: { userId: user.id, token: await issueDeviceToken(deps, user.id) },
    linkedIdentity,
  };
}

async function findPendingSignUpPassword(deps: AuthDeps, userId: string): Promise<string | null> {
  const tokens = schema.oneTimeTokens;
  const [token] = await deps.db
    .select({ passwordHash: tokens.passwordHash })
    .from(tokens)
    .where(and(eq(tokens.userId, userId), eq(tokens.type, 'signup')));
  return token?.passwordHash ?? null;
}
