import { schema } from '@covenant/db';
import { sql } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import { userAlreadyExists, usernameTaken } from './auth-error.js';
import { findUserByEmail } from './find-user-by-email.js';
import { hashPassword } from './hash-password.js';
import type { SessionResponse } from './issue-session-response.js';
import { loadUserAccount, loadUserAccountById } from './load-user-account.js';
import { assertStrongPassword } from './password-policy.js';
import { type GoTrueUser, presentUser } from './present-user.js';
import { enforceRateLimit } from './rate-limits.js';
import { resolveRedirect } from './resolve-redirect.js';
import { sendOneTimeToken } from './send-one-time-token.js';
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
 */
export async function signUpUser(
  deps: AuthDeps,
  input: SignUpInput,
  client: ClientInfo,
): Promise<GoTrueUser | SessionResponse> {
  await enforceRateLimit(deps, deps.rateLimits.signUpPerIp, `signup:ip:${client.ip}`);
  await enforceRateLimit(deps, deps.rateLimits.signUpPerAccount, `signup:email:${input.email}`);
  assertStrongPassword(input.password);
  const confirmationRequired = deps.config.auth.requireEmailConfirmation;
  const redirectTo = resolveRedirect(deps.config.publicUrl, input.redirectTo);

  const existing = await findUserByEmail(deps.db, input.email);
  if (existing) {
    if (existing.emailConfirmedAt || !confirmationRequired) throw userAlreadyExists();
    // Signing up again before confirming usually means the first message got lost: send it again.
    // The stored password stays: whoever can read the mailbox can still reset it.
    await sendOneTimeToken(deps, { user: existing, type: 'signup', to: existing.email, redirectTo });
    return presentUser(await loadUserAccount(deps.db, existing));
  }
  if (input.metadata.username) await assertUsernameAvailable(deps, input.metadata.username);

  const now = deps.now();
  const passwordHash = await hashPassword(input.password);
  const user = await deps.db
    .transaction(async (tx) => {
      const [created] = await tx
        .insert(schema.users)
        .values({
          email: input.email,
          passwordHash,
          emailConfirmedAt: confirmationRequired ? null : now,
          userMetadata: compactMetadata(input.metadata),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await tx.insert(schema.profiles).values({ id: created!.id, username: input.metadata.username ?? null });
      return created!;
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, 'users_email_lower_idx')) throw userAlreadyExists();
      if (isUniqueViolation(error, 'profiles_username_lower_idx')) throw usernameTaken();
      throw error;
    });

  const account = await loadUserAccount(deps.db, user);
  if (!confirmationRequired) return startSession(deps, account, 'password', client);
  await sendOneTimeToken(deps, { user, type: 'signup', to: user.email, redirectTo });
  return presentUser((await loadUserAccountById(deps.db, user.id)) ?? account);
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
