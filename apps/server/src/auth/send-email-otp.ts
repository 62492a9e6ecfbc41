import { schema } from '@covenant/db';
import type { AuthDeps } from './auth-deps.js';
import { findUserByEmail } from './find-user-by-email.js';
import type { UserRow } from './load-user-account.js';
import { networkOfAddress } from './network-of-address.js';
import { enforceRateLimit } from './rate-limits.js';
import { resolveRedirect } from './resolve-redirect.js';
import { sendOneTimeToken } from './send-one-time-token.js';
import type { ClientInfo } from './start-session.js';
import { isUniqueViolation } from './unique-violation.js';
import { compactMetadata, type UserMetadata } from './user-metadata.js';

/**
 * `POST /otp`: e-mails a 6-digit sign-in code (verified with `POST /verify`, type `email`). With
 * `createUser` an unknown address gets a password-less account first. Unknown addresses without it
 * get the same answer and no e-mail; all of it happens after the answer, so neither the answer nor
 * its timing tells which addresses have accounts.
 */
export async function sendEmailOtp(
  deps: AuthDeps,
  input: { email: string; createUser: boolean; metadata: UserMetadata; redirectTo: string | undefined },
  client: ClientInfo,
): Promise<void> {
  await enforceRateLimit(deps, deps.rateLimits.emailPerIp, `email:ip:${networkOfAddress(client.ip)}`);
  await enforceRateLimit(deps, deps.rateLimits.emailPerAccount, `email:address:${input.email}`);
  const redirectTo = resolveRedirect(deps.config.publicUrl, input.redirectTo);
  deps.background.run('sign-in code e-mail', async () => {
    const user =
      (await findUserByEmail(deps.db, input.email)) ??
      (input.createUser ? await createPasswordlessUser(deps, input.email, input.metadata) : undefined);
    if (user) await sendOneTimeToken(deps, { user, type: 'email', to: user.email, redirectTo });
  });
}

async function createPasswordlessUser(
  deps: AuthDeps,
  email: string,
  metadata: UserMetadata,
): Promise<UserRow | undefined> {
  const now = deps.now();
  return deps.db
    .transaction(async (tx) => {
      const [created] = await tx
        .insert(schema.users)
        .values({ email, userMetadata: compactMetadata(metadata), createdAt: now, updatedAt: now })
        .returning();
      await tx.insert(schema.profiles).values({ id: created!.id, username: metadata.username ?? null });
      return created!;
    })
    .catch(async (error: unknown) => {
      // A concurrent request created the same account, or the username is taken: send to the
      // existing account, or fall back to one without a username.
      if (isUniqueViolation(error, 'users_email_lower_idx')) return findUserByEmail(deps.db, email);
      if (isUniqueViolation(error, 'profiles_username_lower_idx')) {
        return createPasswordlessUser(deps, email, { ...metadata, username: undefined });
      }
      throw error;
    });
}
