import { schema } from '@covenant/db';
import { and, eq, ne } from 'drizzle-orm';
import { lastAuthenticationOf, refuseStaleSession } from '../api/access.js';
import { renderEmailChangeRequestedEmail } from '../email/templates/email-change-requested.js';
import type { AuthDeps } from './auth-deps.js';
import { AuthError, sessionNotFound, usernameTaken } from './auth-error.js';
import type { AuthenticatedRequest } from './authenticate-request.js';
import { cancelPendingEmailChange } from './cancel-pending-email-change.js';
import { consumeOneTimeToken, tryOneTimeCode } from './check-one-time-code.js';
import { findUserByEmail } from './find-user-by-email.js';
import { hashPassword, verifyPassword } from './hash-password.js';
import { loadUserAccountById, type UserRow } from './load-user-account.js';
import { assertStrongPassword } from './password-policy.js';
import { type GoTrueUser, presentUser } from './present-user.js';
import { enforceRateLimit } from './rate-limits.js';
import { refuseWithoutRecentTotp } from './refuse-without-recent-totp.js';
import { resolveRedirect } from './resolve-redirect.js';
import { sendOneTimeToken } from './send-one-time-token.js';
import { assertUsernameAvailable } from './sign-up-user.js';
import { throttleSignIn } from './throttle-sign-in.js';
import { isUniqueViolation } from './unique-violation.js';
import { mergeMetadata, type UserMetadata } from './user-metadata.js';

export interface UserChanges {
  email?: string;
  password?: string;
  /** The code from `GET /reauthenticate`, needed to change the password of an older session. */
  nonce?: string;
  /** Alternatively to `nonce`: the password in use. */
  currentPassword?: string;
  metadata?: UserMetadata;
}

/**
 * `PUT /user`: updates metadata (and the profile's username), the password (other sessions are
 * signed out), or starts an e-mail change confirmed by a link sent to the new address.
 */
export async function updateUser(
  deps: AuthDeps,
  caller: AuthenticatedRequest,
  changes: UserChanges,
  options: { redirectTo: string | undefined; ip: string },
): Promise<GoTrueUser> {
  const [user] = await deps.db.select().from(schema.users).where(eq(schema.users.id, caller.userId));
  if (!user) throw sessionNotFound();
  const now = deps.now();
  const email = changes.email && changes.email !== user.email.toLowerCase() ? changes.email : undefined;

  // Every check runs before the first write, so a refused request changes nothing. The proof comes
  // first: comparing the new password with the current one ("same_password") before it would answer
  // whether a guess is the password to a session that proved nothing.
  if (changes.password !== undefined || email)
    await checkRecentProof(deps, caller, user, changes, options.ip);
  if (changes.password !== undefined) await checkNewPassword(user, changes.password);
  if (changes.metadata?.username) await assertUsernameAvailable(deps, changes.metadata.username, user.id);
  if (email) {
    await enforceRateLimit(deps, deps.rateLimits.emailPerAccount, `email:user:${user.id}`);
    const owner = await findUserByEmail(deps.db, email);
    if (owner && owner.id !== user.id) {
      throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
    }
  }

  const passwordHash = changes.password === undefined ? undefined : await hashPassword(changes.password);
  await deps.db
    .transaction(async (tx) => {
      if (changes.metadata) {
        const metadata = mergeMetadata(user.userMetadata, changes.metadata);
        await tx
          .update(schema.users)
          .set({ userMetadata: metadata, updatedAt: now })
          .where(eq(schema.users.id, user.id));
        if ('username' in changes.metadata) {
          await tx
            .update(schema.profiles)
            .set({ username: changes.metadata.username ?? null, updatedAt: now })
            .where(eq(schema.profiles.id, user.id));
        }
      }
      if (passwordHash) {
        await tx
          .update(schema.users)
          .set({ passwordHash, updatedAt: now })
          .where(eq(schema.users.id, user.id));
        await tx
          .delete(schema.sessions)
          .where(and(eq(schema.sessions.userId, user.id), ne(schema.sessions.id, caller.sessionId)));
        // A change asked for with the old password (a thief's) must not outlive it; one asked for in
        // this same request is set again just below.
        await cancelPendingEmailChange(tx, user.id, now);
      }
      if (email) {
        await tx
          .update(schema.users)
          .set({ newEmail: email, updatedAt: now })
          .where(eq(schema.users.id, user.id));
      }
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, 'profiles_username_lower_idx')) throw usernameTaken();
      throw error;
    });
  if (email) {
    const redirectTo = resolveRedirect(deps.config.publicUrl, options.redirectTo);
    await sendOneTimeToken(deps, { user, type: 'email_change', to: email, redirectTo });
    // The current address is told too: the change needs only the new one's confirmation.
    deps.background.run('e-mail change notice', () =>
      deps.mailer.send(
        renderEmailChangeRequestedEmail({
          to: user.email,
          newEmail: email,
          securityUrl: `${deps.config.publicUrl}/settings/security`,
        }),
      ),
    );
  }
  const account = await loadUserAccountById(deps.db, user.id);
  if (!account) throw sessionNotFound();
  return presentUser(account);
}

async function checkNewPassword(user: UserRow, password: string): Promise<void> {
  assertStrongPassword(password);
  if (user.passwordHash && (await verifyPassword(user.passwordHash, password))) {
    throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
  }
}

/**
 * A password or e-mail change is sensitive (ADR 013): a session that proved its user longer ago than
 * the reauthentication window needs a fresh proof — the current password, the nonce of
 * `GET /reauthenticate`, or a `POST /reauthenticate` first — so a stolen long-lived session cannot
 * take the account over. The current password is throttled like a sign-in (the session counted as a
 * known device), so such a session cannot guess it faster than a sign-in could. A user with a second
 * factor needs the session's TOTP proof within the window whatever else is given (GoTrue asks such a
 * user for aal2): a password or a mailbox alone must not move the account.
 */
async function checkRecentProof(
  deps: AuthDeps,
  caller: AuthenticatedRequest,
  user: UserRow,
  changes: UserChanges,
  ip: string,
): Promise<void> {
  const window = deps.config.auth.reauthenticationWindowSeconds;
  if (await refuseWithoutRecentTotp(deps.db, caller, deps.now(), window)) {
    throw new AuthError(
      401,
      'reauthentication_needed',
      'Changing the password or e-mail requires reauthentication with your authenticator code',
    );
  }
  if (changes.currentPassword !== undefined) {
    const attempt = await throttleSignIn(deps, {
      email: user.email.toLowerCase(),
      address: ip,
      knownDeviceId: `session-${caller.sessionId}`,
    });
    if (!user.passwordHash || !(await verifyPassword(user.passwordHash, changes.currentPassword))) {
      throw new AuthError(400, 'invalid_credentials', 'Current password is incorrect');
    }
    await attempt.succeeded();
    return;
  }
  if (changes.nonce !== undefined) {
    await consumeReauthenticationNonce(deps, user.id, changes.nonce);
    return;
  }
  const refusal = refuseStaleSession(
    { kind: 'session', authenticatedAt: lastAuthenticationOf(caller.amr) },
    deps.now(),
    window,
  );
  if (refusal) {
    throw new AuthError(
      401,
      'reauthentication_needed',
      'Changing the password or e-mail requires reauthentication',
    );
  }
}

async function consumeReauthenticationNonce(deps: AuthDeps, userId: string, nonce: string): Promise<void> {
  const tokens = schema.oneTimeTokens;
  const [token] = await deps.db
    .select({ id: tokens.id })
    .from(tokens)
    .where(and(eq(tokens.userId, userId), eq(tokens.type, 'reauthentication')));
  const tried = token && (await tryOneTimeCode(deps.db, token.id, nonce));
  const valid =
    tried && tried.expiresAt.getTime() >= deps.now().getTime() && (await consumeOneTimeToken(deps.db, tried));
  if (!valid) {
    throw new AuthError(422, 'reauthentication_not_valid', 'Verification code is invalid or has expired');
  }
}
