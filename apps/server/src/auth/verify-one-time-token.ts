import { schema } from '@covenant/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import { AuthError, otpExpired } from './auth-error.js';
import { consumeOneTimeToken, tryOneTimeCode } from './check-one-time-code.js';
import type { SessionResponse } from './issue-session-response.js';
import { loadUserAccountById } from './load-user-account.js';
import { networkOfAddress } from './network-of-address.js';
import { hashOpaqueToken } from './opaque-tokens.js';
import { enforceRateLimit } from './rate-limits.js';
import { type ClientInfo, startSession } from './start-session.js';
import { isUniqueViolation } from './unique-violation.js';

/** The `type` values `/verify` accepts, as `@supabase/auth-js` names them. */
export const verificationTypes = ['signup', 'recovery', 'email_change', 'email', 'magiclink'] as const;
export type VerificationType = (typeof verificationTypes)[number];

/** Which stored tokens each requested type may consume (GoTrue lets `email` confirm a sign-up too). */
const acceptedTokenTypes: Record<VerificationType, schema.OneTimeTokenType[]> = {
  signup: ['signup'],
  recovery: ['recovery'],
  email_change: ['email_change'],
  email: ['email', 'signup'],
  magiclink: ['email'],
};

/** The `amr` method recorded for the session each kind of token opens. */
const methods: Record<schema.OneTimeTokenType, string> = {
  signup: 'otp',
  email: 'otp',
  recovery: 'recovery',
  email_change: 'email_change',
  reauthentication: 'otp',
};

export type VerificationInput =
  | { type: VerificationType; linkToken: string }
  | { type: VerificationType; email: string; code: string };

export interface Verification {
  session: SessionResponse;
  /** Where the link asked to go, as stored when the token was issued. */
  redirectTo: string | null;
}

/**
 * Consumes a one-time token — the link's token or the e-mailed code — and applies it: confirms the
 * address, switches to the new address, or just proves the mailbox; then opens a session.
 */
export async function verifyOneTimeToken(
  deps: AuthDeps,
  input: VerificationInput,
  client: ClientInfo,
): Promise<Verification> {
  await enforceRateLimit(deps, deps.rateLimits.verifyPerIp, `verify:ip:${networkOfAddress(client.ip)}`);
  const token = 'linkToken' in input ? await findByLink(deps, input) : await findByCode(deps, input);
  if (!token) throw otpExpired();
  const consumed = await consumeOneTimeToken(deps.db, token);
  if (!consumed || token.expiresAt.getTime() < deps.now().getTime()) throw otpExpired();

  await applyToken(deps, token);
  const account = await loadUserAccountById(deps.db, token.userId);
  if (!account) throw otpExpired();
  const session = await startSession(deps, account, methods[token.type], client);
  return { session, redirectTo: token.redirectTo };
}

type TokenRow = typeof schema.oneTimeTokens.$inferSelect;

async function findByLink(deps: AuthDeps, input: { type: VerificationType; linkToken: string }) {
  const [token] = await deps.db
    .select()
    .from(schema.oneTimeTokens)
    .where(
      and(
        eq(schema.oneTimeTokens.tokenHash, hashOpaqueToken(input.linkToken)),
        inArray(schema.oneTimeTokens.type, acceptedTokenTypes[input.type]),
      ),
    );
  return token;
}

async function findByCode(
  deps: AuthDeps,
  input: { type: VerificationType; email: string; code: string },
): Promise<TokenRow | undefined> {
  await enforceRateLimit(deps, deps.rateLimits.verifyPerAccount, `verify:email:${input.email}`);
  const candidates = await deps.db
    .select()
    .from(schema.oneTimeTokens)
    .where(
      and(
        sql`lower(${schema.oneTimeTokens.email}) = lower(${input.email})`,
        inArray(schema.oneTimeTokens.type, acceptedTokenTypes[input.type]),
      ),
    );
  for (const candidate of candidates) {
    const tried = await tryOneTimeCode(deps.db, candidate.id, input.code);
    if (tried) return tried;
  }
  return undefined;
}

async function applyToken(deps: AuthDeps, token: TokenRow): Promise<void> {
  const now = deps.now();
  const { users } = schema;
  const confirm = { emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now})`, updatedAt: now };
  if (token.type === 'signup') {
    // The sign-up's own link installs the password typed with it, if the address was still unproven.
    const installed = sql`case when ${users.emailConfirmedAt} is null then ${token.passwordHash}::text else ${users.passwordHash} end`;
    await deps.db
      .update(users)
      .set({ ...confirm, passwordHash: token.passwordHash === null ? undefined : installed })
      .where(eq(users.id, token.userId));
    return;
  }
  if (token.type !== 'email_change') {
    // Any token that reached the mailbox proves the address, a recovery link included. A password
    // waiting on a sign-up token was not proven by it (it may be a squatter's): it goes unused.
    await deps.db.transaction(async (tx) => {
      await tx.update(users).set(confirm).where(eq(users.id, token.userId));
      await tx
        .delete(schema.oneTimeTokens)
        .where(and(eq(schema.oneTimeTokens.userId, token.userId), eq(schema.oneTimeTokens.type, 'signup')));
    });
    return;
  }
  const changed = await deps.db
    .update(users)
    .set({ ...confirm, email: token.email, newEmail: null, emailChangeSentAt: null })
    .where(and(eq(users.id, token.userId), sql`lower(${users.newEmail}) = lower(${token.email})`))
    .returning({ id: users.id })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, 'users_email_lower_idx')) {
        throw new AuthError(
          422,
          'email_exists',
          'A user with this email address has already been registered',
        );
      }
      throw error;
    });
  if (changed.length === 0) throw otpExpired();
}
