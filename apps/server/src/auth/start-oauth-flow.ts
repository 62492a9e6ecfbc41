import { schema } from '@covenant/db';
import { lt } from 'drizzle-orm';
import * as openid from 'openid-client';
import { sealText } from '../files/seal-text.js';
import type { AuthDeps } from './auth-deps.js';
import { AuthError, validationFailed } from './auth-error.js';
import { networkOfAddress } from './network-of-address.js';
import { generateOpaqueToken, hashOpaqueToken } from './opaque-tokens.js';
import type { OpenIdProvider } from './open-id-provider.js';
import { enforceRateLimit } from './rate-limits.js';
import { resolveRedirect } from './resolve-redirect.js';
import type { ClientInfo } from './start-session.js';

/** How long a sign-in may stay at the provider before its state is refused. */
export const oauthFlowLifetimeSeconds = 600;

export interface OAuthFlowRequest {
  provider: string;
  redirectTo: string | undefined;
  /** The client's PKCE challenge (`@supabase/auth-js` with `flowType: 'pkce'`); absent for the implicit flow. */
  codeChallenge: string | undefined;
  codeChallengeMethod: string | undefined;
}

export interface StartedOAuthFlow {
  /** Where the browser goes next: the provider's authorization endpoint. */
  authorizationUrl: string;
  /** The state, also handed to the browser in a cookie so the callback can only finish in that browser. */
  state: string;
}

/** The sealing context of a flow's verifier: sealed text copied to another flow does not open. */
export const providerVerifierContext = (stateHash: string) =>
  `oauth_flows.provider_code_verifier:${stateHash}`;

/**
 * `GET /authorize?provider=google`: the OpenID Connect authorization-code flow with PKCE towards
 * the provider. State, nonce and our code verifier stay on the server (the verifier sealed), keyed
 * by the state's hash, for ten minutes; the client's own PKCE challenge, when it sent one, waits
 * there for its code exchange.
 */
export async function startOAuthFlow(
  deps: AuthDeps,
  request: OAuthFlowRequest,
  client: ClientInfo,
): Promise<StartedOAuthFlow> {
  const provider = enabledProvider(deps, request.provider);
  const challenge = clientChallengeOf(request);
  await enforceRateLimit(deps, deps.rateLimits.oauthPerIp, `oauth:ip:${networkOfAddress(client.ip)}`);
  const configuration = await provider.configuration();
  const state = generateOpaqueToken();
  const nonce = openid.randomNonce();
  const verifier = openid.randomPKCECodeVerifier();
  const stateHash = hashOpaqueToken(state);
  const now = deps.now();
  await deps.db.delete(schema.oauthFlows).where(lt(schema.oauthFlows.expiresAt, now));
  await deps.db.insert(schema.oauthFlows).values({
    provider: 'google',
    stateHash,
    nonce,
    providerCodeVerifier: sealText(deps.fileMasterKey, verifier, providerVerifierContext(stateHash)),
    redirectTo: resolveRedirect(deps.config.publicUrl, request.redirectTo),
    codeChallenge: challenge?.codeChallenge ?? null,
    codeChallengeMethod: challenge?.method ?? null,
    expiresAt: new Date(now.getTime() + oauthFlowLifetimeSeconds * 1000),
    createdAt: now,
  });
  const url = openid.buildAuthorizationUrl(configuration, {
    redirect_uri: oauthCallbackUrl(deps.config.publicUrl),
    response_type: 'code',
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: await openid.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { authorizationUrl: url.toString(), state };
}

/** Where the provider sends the browser back; registered with Google as the redirect URI. */
export function oauthCallbackUrl(publicUrl: string): string {
  return `${publicUrl}/auth/v1/callback`;
}

/** The configured provider named by the request, or GoTrue's refusal for it. */
function enabledProvider(deps: AuthDeps, name: string): OpenIdProvider {
  if (name !== 'google') {
    throw validationFailed(`Unsupported provider: Provider ${name.slice(0, 40)} could not be found`);
  }
  if (!deps.google) {
    throw new AuthError(
      400,
      'provider_disabled',
      'Unsupported provider: Google sign-in is not configured on this server',
    );
  }
  return deps.google;
}

/** GoTrue accepts `s256` and `plain` in any case; a challenge without a method (or the reverse) is refused. */
function clientChallengeOf(
  request: OAuthFlowRequest,
): { codeChallenge: string; method: 's256' | 'plain' } | undefined {
  const { codeChallenge, codeChallengeMethod } = request;
  if (!codeChallenge && !codeChallengeMethod) return undefined;
  const method = codeChallengeMethod?.toLowerCase();
  if (!codeChallenge || (method !== 's256' && method !== 'plain')) {
    throw validationFailed('PKCE flow requires code_challenge and code_challenge_method (s256 or plain)');
  }
  // RFC 7636: 43 to 128 characters of [A-Za-z0-9-._~].
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(codeChallenge)) {
    throw validationFailed('code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
  }
  return { codeChallenge, method };
}
