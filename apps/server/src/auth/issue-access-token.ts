import type { schema } from '@covenant/db';
import type { AuthDeps } from './auth-deps.js';
import type { UserAccount } from './load-user-account.js';
import { appMetadataOf } from './present-user.js';

export interface SessionClaimsSource {
  id: string;
  aal: 'aal1' | 'aal2';
  amr: schema.AuthMethodReference[];
}

export interface IssuedAccessToken {
  accessToken: string;
  expiresIn: number;
  expiresAt: number;
}

export const accessTokenAudience = 'authenticated';

export function accessTokenIssuer(publicUrl: string): string {
  return `${publicUrl}/auth/v1`;
}

/** Signs a GoTrue-shaped access token (ES256, with `kid`) for one session of `account`. */
export async function issueAccessToken(
  deps: Pick<AuthDeps, 'signingKey' | 'config' | 'now'>,
  account: UserAccount,
  session: SessionClaimsSource,
): Promise<IssuedAccessToken> {
  const issuedAt = Math.floor(deps.now().getTime() / 1000);
  const expiresIn = deps.config.auth.jwtExpirySeconds;
  const expiresAt = issuedAt + expiresIn;
  const accessToken = deps.signingKey.signJwt('JWT', {
    email: account.user.email,
    phone: '',
    app_metadata: appMetadataOf(account),
    user_metadata: account.user.userMetadata,
    role: 'authenticated',
    aal: session.aal,
    amr: session.amr,
    session_id: session.id,
    is_anonymous: false,
    iss: accessTokenIssuer(deps.config.publicUrl),
    aud: accessTokenAudience,
    sub: account.user.id,
    iat: issuedAt,
    exp: expiresAt,
  });
  return { accessToken, expiresIn, expiresAt };
}
