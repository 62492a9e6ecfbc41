import { renderSignUpAttemptEmail } from '../email/templates/sign-up-attempt.js';
import type { AuthDeps } from './auth-deps.js';
import type { UserRow } from './load-user-account.js';
import { issueOneTimeToken } from './send-one-time-token.js';

/**
 * Tells the owner of a confirmed account that someone signed up with their address, with a link to
 * sign in and a password recovery link (the same kind `/recover` sends, landing on the reset page).
 */
export async function sendSignUpAttemptNotice(
  deps: Pick<AuthDeps, 'db' | 'config' | 'now' | 'mailer'>,
  user: UserRow,
): Promise<void> {
  const { publicUrl } = deps.config;
  const { link } = await issueOneTimeToken(deps, {
    user,
    type: 'recovery',
    to: user.email,
    redirectTo: `${publicUrl}/reset-password`,
  });
  await deps.mailer.send(
    renderSignUpAttemptEmail({ to: user.email, signInUrl: `${publicUrl}/signin`, resetLink: link }),
  );
}
