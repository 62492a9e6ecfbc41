import type { AuthDeps } from './auth-deps.js';
import { issueAccessToken, type SessionClaimsSource } from './issue-access-token.js';
import type { UserAccount } from './load-user-account.js';
import { type GoTrueUser, presentUser } from './present-user.js';

/** GoTrue's token response; `@supabase/auth-js` stores it as its session. */
export interface SessionResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: GoTrueUser;
}

export async function issueSessionResponse(
  deps: Pick<AuthDeps, 'signingKey' | 'config' | 'now'>,
  account: UserAccount,
  session: SessionClaimsSource,
  refreshToken: string,
): Promise<SessionResponse> {
  const { accessToken, expiresIn, expiresAt } = await issueAccessToken(deps, account, session);
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: expiresIn,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: presentUser(account),
  };
}
