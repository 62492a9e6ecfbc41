import { schema } from '@covenant/db';
import { and, eq, lt } from 'drizzle-orm';
import * as openid from 'openid-client';
import { openSealedText } from '../files/seal-text.js';
import type { AuthDeps } from './auth-deps.js';
import { AuthError, isAuthError } from './auth-error.js';
import { findUserByEmail } from './find-user-by-email.js';
import type { SessionResponse } from './issue-session-response.js';
import { loadUserAccount, type UserRow } from './load-user-account.js';
import { networkOfAddress } from './network-of-address.js';
import { generateOpaqueToken, hashOpaqueToken } from './opaque-tokens.js';
import { enforceRateLimit } from './rate-limits.js';
import { oauthCallbackUrl, oauthFlowLifetimeSeconds, providerVerifierContext } from './start-oauth-flow.js';
import { type ClientInfo, startSession } from './start-session.js';
import { isUniqueViolation } from './unique-violation.js';
import { compactMetadata, userMetadataSchema } from './user-metadata.js';

/** How long a client has to exchange its code after the callback (GoTrue: 5 minutes). */
const authCodeLifetimeSeconds = 300;

export type OAuthResult =
  /** The implicit flow: the session goes to the client in the redirect's fragment. */
  | { kind: 'session'; session: SessionResponse }
  /** The PKCE flow: a code the client exchanges with its verifier (`POST /token?grant_type=pkce`). */
  | { kind: 'code'; code: string }
  /** The address has an account already: linked only after its password (see `linkPendingIdentity`). */
  | { kind: 'link_required'; linkToken: string; error: AuthError }
  | { kind: 'refused'; error: AuthError };

export interface FinishedOAuthFlow {
  result: OAuthResult;
  /** The `redirect_to` of the flow (on the site's own origin). */
  redirectTo: string;
}

export const badOAuthState = (detail: string) =>
  new AuthError(400, 'bad_oauth_state', `OAuth state is invalid: ${detail}. Start the sign-in again.`);

export const identityLinkRequired = () =>
  new AuthError(
    409,
    'identity_link_required',
    'This Google account’s e-mail address already has a Covenant account. Sign in with that account’s password to link Google to it.',
  );

/**
 * `GET /callback`: checks that the provider's answer belongs to a flow started in this same browser
 * (`browserState`, from its cookie), uses that flow once, has the code exchanged with our PKCE
 * verifier and the ID token checked (signature, issuer, audience, nonce), then signs the Google
 * identity in, creates its account, or asks for the password of the account its address has.
 * Errors before the flow is known are thrown; after, they come back as `refused` with the flow's
 * `redirect_to`.
 */
export async function finishOAuthFlow(
  deps: AuthDeps,
  input: { query: string; browserState: string | undefined },
  client: ClientInfo,
): Promise<FinishedOAuthFlow> {
  await enforceRateLimit(deps, deps.rateLimits.oauthPerIp, `oauth:ip:${networkOfAddress(client.ip)}`);
  const params = new URLSearchParams(input.query);
  const state = params.get('state');
  if (!state) throw badOAuthState('the provider’s answer carries no state');
  if (state !== input.browserState) throw badOAuthState('this sign-in was not started in this browser');
  const stateHash = hashOpaqueToken(state);
  const [flow] = await deps.db
    .delete(schema.oauthFlows)
    .where(eq(schema.oauthFlows.stateHash, stateHash))
    .returning();
  if (!flow) throw badOAuthState('it was used already or is unknown');
  const redirectTo = flow.redirectTo;
  if (flow.expiresAt <= deps.now()) {
    return { redirectTo, result: { kind: 'refused', error: badOAuthState('the sign-in took too long') } };
  }
  try {
    const claims = await exchangeCode(deps, params, {
      state,
      nonce: flow.nonce,
      verifier: openSealedText(
        deps.fileMasterKey,
        flow.providerCodeVerifier,
        providerVerifierContext(stateHash),
      ),
    });
    const identity = identityOf(claims);
    const user = await resolveUser(deps, identity);
    if ('linkToken' in user) {
      return {
        redirectTo,
        result: { kind: 'link_required', linkToken: user.linkToken, error: identityLinkRequired() },
      };
    }
    if (flow.codeChallenge && flow.codeChallengeMethod) {
      const code = generateOpaqueToken();
      const now = deps.now();
      await deps.db.insert(schema.oauthAuthCodes).values({
        codeHash: hashOpaqueToken(code),
        userId: user.id,
        provider: 'google',
        codeChallenge: flow.codeChallenge,
        codeChallengeMethod: flow.codeChallengeMethod,
        expiresAt: new Date(now.getTime() + authCodeLifetimeSeconds * 1000),
        createdAt: now,
      });
      return { redirectTo, result: { kind: 'code', code } };
    }
    const session = await startSession(deps, await loadUserAccount(deps.db, user), 'oauth', client);
    return { redirectTo, result: { kind: 'session', session } };
  } catch (error) {
    if (isAuthError(error)) return { redirectTo, result: { kind: 'refused', error } };
    throw error;
  }
}

/** The verified ID token's claims, or a refusal naming what did not match. */
async function exchangeCode(
  deps: AuthDeps,
  params: URLSearchParams,
  checks: { state: string; nonce: string; verifier: string },
): Promise<openid.IDToken> {
  const configuration = await deps.google!.configuration();
  try {
    const tokens = await openid.authorizationCodeGrant(
      configuration,
      new URL(`${oauthCallbackUrl(deps.config.publicUrl)}?${params.toString()}`),
      {
        pkceCodeVerifier: checks.verifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      },
    );
    const claims = tokens.claims();
    if (!claims) throw new AuthError(400, 'bad_oauth_callback', 'Google answered without an ID token');
    return claims;
  } catch (error) {
    if (isAuthError(error)) throw error;
    if (error instanceof openid.AuthorizationResponseError) {
      // The user cancelled at Google, or Google refused the request.
      throw new AuthError(
        400,
        'bad_oauth_callback',
        error.error_description ?? `Google answered ${error.error}`,
        {
          cause: error,
        },
      );
    }
    throw new AuthError(
      400,
      'bad_oauth_callback',
      mentionsNonce(error)
        ? 'The ID token’s nonce does not match this sign-in. Start the sign-in again.'
        : 'Google’s answer could not be verified for this sign-in. Start the sign-in again.',
      { cause: error },
    );
  }
}

/** Whether the library's error (or one it wraps) is about the ID token's nonce. */
function mentionsNonce(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.message.includes('"nonce"')) return true;
  }
  return false;
}

interface ProviderIdentity {
  subject: string;
  email: string;
  data: Record<string, unknown>;
  metadata: Record<string, string>;
}

function identityOf(claims: openid.IDToken): ProviderIdentity {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  // Google vouches for an address only with email_verified: true; anything else could be anyone's.
  if (!email || claims.email_verified !== true) {
    throw new AuthError(
      422,
      'provider_email_needs_verification',
      'Google has not verified the e-mail address of this account. Verify it with Google, then try again.',
    );
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const names = userMetadataSchema.safeParse({
    first_name: text(claims.given_name),
    last_name: text(claims.family_name),
  });
  return {
    subject: claims.sub,
    email,
    data: {
      iss: claims.iss,
      sub: claims.sub,
      provider_id: claims.sub,
      email,
      email_verified: true,
      phone_verified: false,
      ...(text(claims.name) ? { name: text(claims.name), full_name: text(claims.name) } : {}),
      ...(text(claims.picture) ? { picture: text(claims.picture), avatar_url: text(claims.picture) } : {}),
    },
    metadata: names.success ? compactMetadata(names.data) : {},
  };
}

/**
 * The account the identity signs in to: the one it is linked to; a new one when its address is
 * unknown (confirmed, as Google verified it); or, when the address has an account, none yet — a
 * pending link that the account's password completes.
 */
async function resolveUser(
  deps: AuthDeps,
  identity: ProviderIdentity,
): Promise<UserRow | { linkToken: string }> {
  const now = deps.now();
  const linked = await deps.db
    .update(schema.identities)
    .set({ email: identity.email, identityData: identity.data, lastSignInAt: now, updatedAt: now })
    .where(and(eq(schema.identities.provider, 'google'), eq(schema.identities.providerId, identity.subject)))
    .returning({ userId: schema.identities.userId });
  if (linked[0]) {
    const [user] = await deps.db.select().from(schema.users).where(eq(schema.users.id, linked[0].userId));
    return user!;
  }
  const existing = await findUserByEmail(deps.db, identity.email);
  if (existing) return { linkToken: await createPendingLink(deps, existing.id, identity) };
  const created = await createAccount(deps, identity);
  if (created) return created;
  // Signed up at the same moment by another request: an address with an account after all.
  const raced = await findUserByEmail(deps.db, identity.email);
  if (!raced) throw new AuthError(409, 'conflict', 'The account changed meanwhile. Try again.');
  return { linkToken: await createPendingLink(deps, raced.id, identity) };
}

async function createAccount(deps: AuthDeps, identity: ProviderIdentity): Promise<UserRow | undefined> {
  const now = deps.now();
  return deps.db
    .transaction(async (tx) => {
      const [user] = await tx
        .insert(schema.users)
        .values({
          email: identity.email,
          passwordHash: null,
          emailConfirmedAt: now,
          userMetadata: identity.metadata,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await tx.insert(schema.profiles).values({ id: user!.id });
      await tx.insert(schema.identities).values({
        userId: user!.id,
        provider: 'google',
        providerId: identity.subject,
        email: identity.email,
        identityData: identity.data,
        lastSignInAt: now,
        createdAt: now,
        updatedAt: now,
      });
      return user!;
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, 'users_email_lower_idx')) return undefined;
      throw error;
    });
}

async function createPendingLink(
  deps: AuthDeps,
  userId: string,
  identity: ProviderIdentity,
): Promise<string> {
  const token = generateOpaqueToken();
  const now = deps.now();
  await deps.db.delete(schema.pendingIdentityLinks).where(lt(schema.pendingIdentityLinks.expiresAt, now));
  await deps.db.insert(schema.pendingIdentityLinks).values({
    tokenHash: hashOpaqueToken(token),
    userId,
    provider: 'google',
    providerId: identity.subject,
    email: identity.email,
    identityData: identity.data,
    expiresAt: new Date(now.getTime() + oauthFlowLifetimeSeconds * 1000),
    createdAt: now,
  });
  return token;
}
