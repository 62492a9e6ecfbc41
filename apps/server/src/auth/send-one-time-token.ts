import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import { renderConfirmEmailChangeEmail } from '../email/templates/confirm-email-change.js';
import { renderConfirmSignupEmail } from '../email/templates/confirm-signup.js';
import { renderOneTimeCodeEmail } from '../email/templates/one-time-code.js';
import { renderResetPasswordEmail } from '../email/templates/reset-password.js';
import type { AuthDeps } from './auth-deps.js';
import type { UserRow } from './load-user-account.js';
import { generateNumericCode, generateOpaqueToken, hashOpaqueToken } from './opaque-tokens.js';

type OneTimeTokenType = schema.OneTimeTokenType;

const lifetimeSeconds: Record<OneTimeTokenType, number> = {
  signup: 24 * 3600,
  email_change: 24 * 3600,
  recovery: 3600,
  email: 3600,
  reauthentication: 600,
};

/** Hashing the code together with its token's hash keeps equal codes of different tokens apart. */
export function hashCode(tokenHash: string, code: string): string {
  return hashOpaqueToken(`${tokenHash}:${code}`);
}

/**
 * Issues a single-use token of `type` for `user` (replacing any earlier one of that type) and
 * e-mails it to `to`: a verification link and a 6-digit code, or just the code.
 */
export async function sendOneTimeToken(deps: AuthDeps, input: OneTimeTokenRequest): Promise<void> {
  const { link, code } = await issueOneTimeToken(deps, input);
  const message = {
    signup: () => renderConfirmSignupEmail({ to: input.to, link, code }),
    recovery: () => renderResetPasswordEmail({ to: input.to, link, code }),
    email_change: () =>
      renderConfirmEmailChangeEmail({ to: input.to, currentEmail: input.user.email, link, code }),
    email: () => renderOneTimeCodeEmail({ to: input.to, code, purpose: 'sign-in' }),
    reauthentication: () => renderOneTimeCodeEmail({ to: input.to, code, purpose: 'reauthentication' }),
  }[input.type]();
  await deps.mailer.send(message);
}

export interface OneTimeTokenRequest {
  user: UserRow;
  type: OneTimeTokenType;
  to: string;
  redirectTo: string;
  /**
   * A sign-up's password, installed when this token is verified. A new sign-up passes its own (the
   * newest sign-up wins); without it a sign-up token sent again keeps the one it replaces.
   */
  passwordHash?: string;
}

/** Stores a single-use token of `type` for `user` and returns its verification link and code. */
export async function issueOneTimeToken(
  deps: Pick<AuthDeps, 'db' | 'config' | 'now'>,
  input: OneTimeTokenRequest,
): Promise<{ link: string; code: string }> {
  const now = deps.now();
  const token = generateOpaqueToken();
  const code = generateNumericCode();
  const tokenHash = hashOpaqueToken(token);
  const values = {
    email: input.to,
    tokenHash,
    codeHash: hashCode(tokenHash, code),
    failedAttempts: 0,
    redirectTo: input.redirectTo,
    expiresAt: new Date(now.getTime() + lifetimeSeconds[input.type] * 1000),
    createdAt: now,
    ...(input.passwordHash === undefined ? {} : { passwordHash: input.passwordHash }),
  };
  await deps.db
    .insert(schema.oneTimeTokens)
    .values({ userId: input.user.id, type: input.type, ...values })
    .onConflictDoUpdate({ target: [schema.oneTimeTokens.userId, schema.oneTimeTokens.type], set: values });
  const sentAt = sentAtColumn(input.type, now);
  if (sentAt) await deps.db.update(schema.users).set(sentAt).where(eq(schema.users.id, input.user.id));

  const link = new URL(`${deps.config.publicUrl}/auth/v1/verify`);
  link.searchParams.set('token', token);
  link.searchParams.set('type', input.type);
  link.searchParams.set('redirect_to', input.redirectTo);
  return { link: link.toString(), code };
}

/** The user column GoTrue reports as `*_sent_at` for this kind of message, if any. */
function sentAtColumn(type: OneTimeTokenType, now: Date): Partial<UserRow> | undefined {
  switch (type) {
    case 'signup':
      return { confirmationSentAt: now };
    case 'recovery':
      return { recoverySentAt: now };
    case 'email_change':
      return { emailChangeSentAt: now };
    case 'reauthentication':
      return { reauthenticationSentAt: now };
    case 'email':
      return undefined;
  }
}
