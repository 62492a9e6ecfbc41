import { createHash, timingSafeEqual } from 'node:crypto';
import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import type { AuthDeps } from './auth-deps.js';
import { AuthError } from './auth-error.js';
import type { SessionResponse } from './issue-session-response.js';
import { loadUserAccountById } from './load-user-account.js';
import { networkOfAddress } from './network-of-address.js';
import { hashOpaqueToken } from './opaque-tokens.js';
import { enforceRateLimit } from './rate-limits.js';
import { type ClientInfo, startSession } from './start-session.js';

const flowStateNotFound = () =>
  new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');

/**
 * `POST /token?grant_type=pkce`: the code of a provider's callback and the client's PKCE verifier
 * to a session. The code works once: a wrong verifier spends it too.
 */
export async function exchangeAuthCode(
  deps: AuthDeps,
  input: { authCode: string; codeVerifier: string },
  client: ClientInfo,
): Promise<SessionResponse> {
  await enforceRateLimit(deps, deps.rateLimits.oauthPerIp, `oauth:ip:${networkOfAddress(client.ip)}`);
  const [code] = await deps.db
    .delete(schema.oauthAuthCodes)
    .where(eq(schema.oauthAuthCodes.codeHash, hashOpaqueToken(input.authCode)))
    .returning();
  if (!code) throw flowStateNotFound();
  if (code.expiresAt <= deps.now()) {
    throw new AuthError(403, 'flow_state_expired', 'Flow state has expired. Start the sign-in again.');
  }
  if (!challengeMatches(code, input.codeVerifier)) {
    throw new AuthError(
      400,
      'bad_code_verifier',
      'code challenge does not match previously saved code verifier',
    );
  }
  const account = await loadUserAccountById(deps.db, code.userId);
  if (!account) throw flowStateNotFound();
  return startSession(deps, account, 'oauth', client);
}

function challengeMatches(
  code: { codeChallenge: string; codeChallengeMethod: 's256' | 'plain' },
  verifier: string,
): boolean {
  const computed =
    code.codeChallengeMethod === 's256'
      ? createHash('sha256').update(verifier).digest('base64url')
      : verifier;
  const expected = Buffer.from(code.codeChallenge);
  const actual = Buffer.from(computed);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
