import { randomUUID } from 'node:crypto';
import { schema } from '@covenant/db';
import { sql } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import { userAlreadyExists, usernameTaken } from './auth-error.js';
import { findUserByEmail } from './find-user-by-email.js';
import { hashPassword } from './hash-password.js';
import type { SessionResponse } from './issue-session-response.js';
import { loadUserAccount, type UserRow } from './load-user-account.js';
import { networkOfAddress } from './network-of-address.js';
import { assertStrongPassword } from './password-policy.js';
import { type GoTrueUser, presentNewUser } from './present-user.js';
import { enforceRateLimit } from './rate-limits.js';
import { resolveRedirect } from './resolve-redirect.js';
import { sendOneTimeToken } from './send-one-time-token.js';
import { sendSignUpAttemptNotice } from './send-sign-up-attempt-notice.js';
import { type ClientInfo, startSession } from './start-session.js';
import { isUniqueViolation } from './unique-violation.js';
import { compactMetadata, type UserMetadata } from './user-metadata.js';

export interface SignUpInput {
  email: string;
  password: string;
  metadata: UserMetadata;
  redirectTo: string | undefined;
}

/**
 * Creates an account with its profile. While e-mail confirmation is required the answer is the new
 * user and a confirmation link goes out; otherwise the user is signed in at once.
 *
 * An address that already has an account gets, while confirmation is required, the same answer as
 * a new one (GoTrue's behaviour, ADR 012) and its owner an e-mail instead: the confirmation again
 * when the account is not confirmed yet, otherwise a notice with sign-in and reset links. Without
 * confirmation GoTrue answers `user_already_exists`, and so do we.
 */
export async function signUpUser(
  deps: AuthDeps,
  input: SignUpInput,
  client: ClientInfo,
): Promise<GoTrueUser | SessionResponse> {
  await enforceRateLimit(deps, deps.rateLimits.signUpPerIp, `signup:ip:${networkOfAddress(client.ip)}`);
  await enforceRateLimit(deps, deps.rateLimits.signUpPerAccount, `signup:email:${input.email}`);
  assertStrongPassword(input.password);
  // Before the address is looked at: a taken username must not answer differently for known addresses.
  if (input.metadata.username) await assertUsernameAvailable(deps, input.metadata.username);
  const confirmationRequired = deps.config.auth.requireEmailConfirmation;
  const redirectTo = resolveRedirect(deps.config.publicUrl, input.redirectTo);
  const now = deps.now();
  const userMetadata = compactMetadata(input.metadata);

  const existing = await findUserByEmail(deps.db, input.email);
  if (existing && !confirmationRequired) throw userAlreadyExists();
  // Hashed for a known address too, so the answer takes as long.
  const passwordHash = await hashPassword(input.password);
  if (existing)
    return answerKnownAddress(deps, existing, { ...input, passwordHash, userMetadata, now, redirectTo });

  const user = await createAccount(deps, {
    email: input.email,
    // Until the address is proven the password waits on the sign-up token (see answerKnownAddress).
    passwordHash: confirmationRequired ? null : passwordHash,
    confirmed: !confirmationRequired,
    userMetadata,
    username: input.metadata.username,
    now,
  });
  if (!user) {
    // Signed up at the same moment by another request: a known address after all.
    const raced = await findUserByEmail(deps.db, input.email);
    if (!raced || !confirmationRequired) throw userAlreadyExists();
    return answerKnownAddress(deps, raced, { ...input, passwordHash, userMetadata, now, redirectTo });
  }

  if (!confirmationRequired)
    return startSession(deps, await loadUserAccount(deps.db, user), 'password', client);
  deps.background.run('sign-up confirmation e-mail', () =>
    sendOneTimeToken(deps, { user, type: 'signup', to: user.email, redirectTo, passwordHash }),
  );
  return presentNewUser({ id: user.id, email: input.email, userMetadata, createdAt: now });
}

/** The user and its profile; undefined when the address got an account meanwhile. */
async function createAccount(
  deps: AuthDeps,
  input: {
    email: string;
    passwordHash: string | null;
    confirmed: boolean;
    userMetadata: Record<string, unknown>;
    username: string | undefined;
    now: Date;
  },
): Promise<UserRow | undefined> {
  const { now } = input;
  return deps.db
    .transaction(async (tx) => {
      const [created] = await tx
        .insert(schema.users)
        .values({
          email: input.email,
          passwordHash: input.passwordHash,
          emailConfirmedAt: input.confirmed ? now : null,
          confirmationSentAt: input.confirmed ? null : now,
          userMetadata: input.userMetadata,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await tx.insert(schema.profiles).values({ id: created!.id, username: input.username ?? null });
      return created!;
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, 'users_email_lower_idx')) return undefined;
      if (isUniqueViolation(error, 'profiles_username_lower_idx')) throw usernameTaken();
      throw error;
    });
}

/** The answer of a new account, with a fresh id; the e-mail goes to the account's owner. */
function answerKnownAddress(
  deps: AuthDeps,
  user: UserRow,
  input: {
    email: string;
    passwordHash: string;
    userMetadata: Record<string, unknown>;
    now: Date;
    redirectTo: string;
  },
): GoTrueUser {
  if (user.emailConfirmedAt) {
    deps.background.run('sign-up attempt notice', () => sendSignUpAttemptNotice(deps, user));
  } else {
    // Usually the first confirmation got lost, but the first sign-up may as well be a squatter's:
    // this one's password replaces the pending one, and only the link sent now installs it.
    deps.background.run('sign-up confirmation e-mail', () =>
      sendOneTimeToken(deps, {
        user,
        type: 'signup',
        to: user.email,
        redirectTo: input.redirectTo,
        passwordHash: input.passwordHash,
      }),
    );
  }
  return presentNewUser({
    id: randomUUID(),
    email: input.email,
    userMetadata: input.userMetadata,
    createdAt: input.now,
  });
}

export async function assertUsernameAvailable(
  deps: Pick<AuthDeps, 'db'>,
  username: string,
  exceptUserId?: string,
): Promise<void> {
  const [taken] = await deps.db
    .select({ id: schema.profiles.id })
    .from(schema.profiles)
    .where(sql`lower(${schema.profiles.username}) = lower(${username})`);
  if (taken && taken.id !== exceptUserId) throw usernameTaken();
}
