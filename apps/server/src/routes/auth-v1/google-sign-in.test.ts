import { randomUUID } from 'node:crypto';
import { schema } from '@covenant/db';
import type { Session, User } from '@supabase/auth-js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestOpenIdProvider,
  type TestOpenIdProvider,
} from '../../testing/start-test-openid-provider.js';
import { TestBrowser } from '../../testing/test-browser.js';
import { type AuthTestServer, startAuthTestServer, testPublicUrl } from './start-auth-test-server.js';

// "Continue with Google" against a real OpenID provider on loopback, through the official auth
// client where it takes part: the browser's redirects are followed by hand, with its cookies.

let provider: TestOpenIdProvider;
let server: AuthTestServer;
beforeAll(async () => {
  provider = await startTestOpenIdProvider({ redirectUris: [`${testPublicUrl}/auth/v1/callback`] });
  server = await startAuthTestServer({
    env: {
      GOOGLE_CLIENT_ID: provider.clientId,
      GOOGLE_CLIENT_SECRET: provider.clientSecret,
      GOOGLE_ISSUER_URL: provider.issuer,
    },
  });
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});

const password = 'correct horse battery';
const site = `${testPublicUrl}/trading`;

function googleAccount(overrides: { email?: string; email_verified?: boolean } = {}) {
  const id = randomUUID();
  return {
    sub: `google-${id}`,
    email: overrides.email ?? `g.${id}@gmail.example`,
    email_verified: overrides.email_verified ?? true,
    given_name: 'Grace',
    family_name: 'Hopper',
  };
}

const newBrowser = () => new TestBrowser({ [testPublicUrl]: server.origin });

/** Follows the flow until the browser is sent back to the site (anything outside /auth/v1 there). */
const untilTheSite = (next: URL) => next.origin !== testPublicUrl || next.pathname.startsWith('/auth/v1/');

/** Starts "Continue with Google" in `browser` and follows it back to the site. */
async function continueWithGoogle(browser: TestBrowser, query = '') {
  const authorize = `${testPublicUrl}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent(site)}${query}`;
  const { url } = await browser.navigate(authorize, untilTheSite);
  return { url, fragment: new URLSearchParams(url.hash.slice(1)) };
}

/** The provider's authorization URL of a flow started in `browser`, not yet visited. */
async function startFlow(browser: TestBrowser) {
  const response = await browser.fetch(
    `${testPublicUrl}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent(site)}`,
  );
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

/** Goes through the provider (login) up to the redirect to our callback, without following it. */
async function throughProvider(browser: TestBrowser, authorizationUrl: URL) {
  const { url } = await browser.navigate(authorizationUrl, (next) => next.origin === provider.issuer);
  expect(url.pathname).toBe('/auth/v1/callback');
  return url;
}

async function userOf(accessToken: string): Promise<User> {
  const response = await fetch(`${server.origin}/auth/v1/user`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as User;
}

async function signUpConfirmed(email: string) {
  const client = server.createClient();
  expect((await client.signUp({ email, password })).error).toBeNull();
  const link = server.linkIn(await server.takeEmail(email, 'Confirm your Covenant account'));
  expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
}

describe('continue with Google', () => {
  it('reports Google enabled in the settings', async () => {
    const settings = (await (await fetch(`${server.origin}/auth/v1/settings`)).json()) as {
      external: Record<string, boolean>;
    };
    expect(settings.external).toMatchObject({ email: true, google: true });
  });

  it('creates the account on the first sign-in (address verified by Google) and signs the same account in after', async () => {
    const account = googleAccount();
    provider.signInAs(account);
    const { url, fragment } = await continueWithGoogle(newBrowser());
    expect(`${url.origin}${url.pathname}`).toBe(site);
    expect(fragment.get('token_type')).toBe('bearer');
    expect(Number(fragment.get('expires_in'))).toBeGreaterThan(0);
    const user = await userOf(fragment.get('access_token')!);
    expect(user).toMatchObject({
      email: account.email,
      app_metadata: { provider: 'google', providers: ['google'] },
      user_metadata: { first_name: 'Grace', last_name: 'Hopper' },
    });
    expect(user.email_confirmed_at).toBeTruthy();
    expect(user.identities).toEqual([
      expect.objectContaining({
        provider: 'google',
        id: account.sub,
        email: account.email,
        identity_data: expect.objectContaining({ sub: account.sub, email_verified: true }),
      }),
    ]);
    const [profile] = await server.database.db
      .select()
      .from(schema.profiles)
      .where(eq(schema.profiles.id, user.id));
    expect(profile).toMatchObject({ verificationStatus: 'unverified', tradingTier: 'basic' });

    // The refresh token works like any session's.
    const refreshed = await server
      .createClient()
      .refreshSession({ refresh_token: fragment.get('refresh_token')! });
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.user?.id).toBe(user.id);

    const again = await continueWithGoogle(newBrowser());
    expect((await userOf(again.fragment.get('access_token')!)).id).toBe(user.id);
  });

  it('answers a PKCE client with a code that only its verifier exchanges, once', async () => {
    provider.signInAs(googleAccount());
    const client = server.createClient({ flowType: 'pkce' });
    const { data, error } = await client.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: site, skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    const authorize = new URL(data.url!);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('s256');
    const { url } = await newBrowser().navigate(
      `${testPublicUrl}${authorize.pathname}${authorize.search}`,
      untilTheSite,
    );
    const code = url.searchParams.get('code')!;
    expect(code).toBeTruthy();
    expect(url.hash).toBe('');

    const wrongVerifier = await fetch(`${server.origin}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(64) }),
    });
    expect(wrongVerifier.status).toBe(400);
    expect(((await wrongVerifier.json()) as { code: string }).code).toBe('bad_code_verifier');
    // The wrong verifier spent the code: the real one no longer opens it.
    const spent = await client.exchangeCodeForSession(code);
    expect(spent.error?.code).toBe('flow_state_not_found');

    // A fresh flow, exchanged by the client with its own verifier.
    const second = await client.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: site, skipBrowserRedirect: true },
    });
    const secondUrl = new URL(second.data.url!);
    const back = await newBrowser().navigate(
      `${testPublicUrl}${secondUrl.pathname}${secondUrl.search}`,
      untilTheSite,
    );
    const exchanged = await client.exchangeCodeForSession(back.url.searchParams.get('code')!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.session?.user.app_metadata.provider).toBe('google');
    expect(exchanged.data.user?.identities?.map((identity) => identity.provider)).toEqual(['google']);
  });

  it('refuses a callback in a browser that did not start the sign-in, and a state used before', async () => {
    provider.signInAs(googleAccount());
    const starter = newBrowser();
    const callback = await throughProvider(starter, await startFlow(starter));

    // The attacker's callback URL opened in the victim's browser (login CSRF): no state cookie there.
    const elsewhere = await newBrowser().navigate(callback, untilTheSite);
    expect(new URLSearchParams(elsewhere.url.hash.slice(1)).get('error_code')).toBe('bad_oauth_state');

    const finished = await starter.navigate(callback, untilTheSite);
    expect(new URLSearchParams(finished.url.hash.slice(1)).get('access_token')).toBeTruthy();
    // The same answer again: the flow was used up.
    const replayed = await starter.navigate(callback, untilTheSite);
    const fragment = new URLSearchParams(replayed.url.hash.slice(1));
    expect(fragment.get('error_code')).toBe('bad_oauth_state');
    expect(fragment.get('access_token')).toBeNull();
  });

  it('refuses a state that is not the browser’s own', async () => {
    provider.signInAs(googleAccount());
    const browser = newBrowser();
    const callback = await throughProvider(browser, await startFlow(browser));
    callback.searchParams.set('state', 'forged-state');
    const { url } = await browser.navigate(callback, untilTheSite);
    const fragment = new URLSearchParams(url.hash.slice(1));
    expect(fragment.get('error_code')).toBe('bad_oauth_state');
    expect(fragment.get('error_description')).toMatch(/not started in this browser/);
  });

  it('refuses a sign-in that stayed at the provider longer than ten minutes', async () => {
    provider.signInAs(googleAccount());
    const browser = newBrowser();
    const callback = await throughProvider(browser, await startFlow(browser));
    server.advanceClock(601);
    const { url } = await browser.navigate(callback, untilTheSite);
    const fragment = new URLSearchParams(url.hash.slice(1));
    expect(`${url.origin}${url.pathname}`).toBe(site);
    expect(fragment.get('error_code')).toBe('bad_oauth_state');
    expect(fragment.get('error_description')).toMatch(/took too long/);
  });

  it('refuses an ID token whose nonce is not the flow’s', async () => {
    const account = googleAccount();
    provider.signInAs(account);
    const browser = newBrowser();
    const authorizationUrl = await startFlow(browser);
    // An ID token minted for another authorization request: the provider signs the nonce it was given.
    authorizationUrl.searchParams.set('nonce', 'a-nonce-of-another-request');
    const callback = await throughProvider(browser, authorizationUrl);
    const { url } = await browser.navigate(callback, untilTheSite);
    const fragment = new URLSearchParams(url.hash.slice(1));
    expect(`${url.origin}${url.pathname}`).toBe(site);
    expect(fragment.get('error_code')).toBe('bad_oauth_callback');
    expect(fragment.get('error_description')).toMatch(/nonce does not match/);
    expect(await usersWithEmail(account.email)).toHaveLength(0);
  });

  it('refuses an address Google has not verified', async () => {
    const account = googleAccount({ email_verified: false });
    provider.signInAs(account);
    const { fragment } = await continueWithGoogle(newBrowser());
    expect(fragment.get('error_code')).toBe('provider_email_needs_verification');
    expect(fragment.get('access_token')).toBeNull();
    expect(await usersWithEmail(account.email)).toHaveLength(0);
  });

  it('links a Google identity to the password account of its address only after that password, in the same browser', async () => {
    const email = `owner.${randomUUID()}@example.com`;
    await signUpConfirmed(email);
    const account = googleAccount({ email });
    provider.signInAs(account);
    const browser = newBrowser();

    const { fragment } = await continueWithGoogle(browser);
    expect(fragment.get('access_token')).toBeNull();
    expect(fragment.get('error_code')).toBe('identity_link_required');
    expect(fragment.get('error_description')).toMatch(/Sign in with that account’s password to link Google/);
    expect(await identitiesOf(email)).toHaveLength(0);

    const signIn = (from: TestBrowser, withPassword: string) =>
      from.fetch(`${testPublicUrl}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: withPassword }),
      });
    // A wrong password, and the right one in another browser, link nothing.
    expect((await signIn(browser, 'not the password')).status).toBe(400);
    expect((await signIn(newBrowser(), password)).status).toBe(200);
    expect(await identitiesOf(email)).toHaveLength(0);

    const proven = await signIn(browser, password);
    expect(proven.status).toBe(200);
    const session = (await proven.json()) as Session;
    expect(session.user.app_metadata).toMatchObject({ provider: 'email', providers: ['email', 'google'] });
    expect(session.user.identities?.map((identity) => identity.provider)).toEqual(['email', 'google']);
    expect(await identitiesOf(email)).toHaveLength(1);
    const notice = await server.takeEmail(email, 'Google sign-in was added to your Covenant account');
    expect(notice.text).toContain(`The Google account ${email} can now sign in to your Covenant account`);
    // The link cookie is gone with its use.
    expect(browser.cookieHeader(`${testPublicUrl}/auth/v1/token`)).not.toContain('covenant-identity-link');

    // From now on Google signs in to that account directly.
    const again = await continueWithGoogle(newBrowser());
    expect((await userOf(again.fragment.get('access_token')!)).email).toBe(email);
  });
});

describe('unlinking Google', () => {
  /** A password account with a linked Google identity, signed in with its password just now. */
  async function linkedAccount() {
    const email = `unlink.${randomUUID()}@example.com`;
    await signUpConfirmed(email);
    provider.signInAs(googleAccount({ email }));
    const browser = newBrowser();
    expect((await continueWithGoogle(browser)).fragment.get('error_code')).toBe('identity_link_required');
    const proven = await browser.fetch(`${testPublicUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(proven.status).toBe(200);
    await server.takeEmail(email, 'Google sign-in was added to your Covenant account');
    return { email, session: (await proven.json()) as Session };
  }

  const clientWith = async (session: Pick<Session, 'access_token' | 'refresh_token'>) => {
    const client = server.createClient();
    const { error } = await client.setSession(session);
    expect(error).toBeNull();
    return client;
  };

  const unlink = (accessToken: string, identityId: string) =>
    fetch(`${server.origin}/auth/v1/user/identities/${identityId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${accessToken}` },
    });

  it('removes a linked Google identity through the official client’s unlinkIdentity, and tells the owner', async () => {
    const { email, session } = await linkedAccount();
    const client = await clientWith(session);
    const { data: listed } = await client.getUserIdentities();
    const google = listed!.identities.find((identity) => identity.provider === 'google')!;
    const { data, error } = await client.unlinkIdentity(google);
    expect(error).toBeNull();
    expect(data).toEqual({});
    expect(await identitiesOf(email)).toHaveLength(0);
    const user = await userOf(session.access_token);
    expect(user.identities?.map((identity) => identity.provider)).toEqual(['email']);
    expect(user.app_metadata).toMatchObject({ provider: 'email', providers: ['email'] });
    const notice = await server.takeEmail(email, 'Google sign-in was removed from your Covenant account');
    expect(notice.text).toContain(
      `The Google account ${email} can no longer sign in to your Covenant account`,
    );
    // Once removed, it is not found again.
    expect((await client.unlinkIdentity(google)).error).toMatchObject({
      status: 404,
      code: 'identity_not_found',
    });
  });

  it('refuses to remove the last way to sign in, and another user’s identity', async () => {
    provider.signInAs(googleAccount());
    const googleOnly = (await continueWithGoogle(newBrowser())).fragment;
    const client = await clientWith({
      access_token: googleOnly.get('access_token')!,
      refresh_token: googleOnly.get('refresh_token')!,
    });
    const { data: listed } = await client.getUserIdentities();
    expect(listed!.identities.map((identity) => identity.provider)).toEqual(['google']);
    const { error } = await client.unlinkIdentity(listed!.identities[0]!);
    expect(error).toMatchObject({ status: 422, code: 'single_identity_not_deletable' });
    expect(await userOf(googleOnly.get('access_token')!)).toHaveProperty('identities.length', 1);

    // Another user's identity is not found, and stays.
    const { email, session } = await linkedAccount();
    const [theirs] = await identitiesOf(email);
    const refused = await unlink(googleOnly.get('access_token')!, theirs!.id);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error_code: 'identity_not_found' });
    expect(await identitiesOf(email)).toHaveLength(1);
    // A malformed id is a clear 400.
    expect((await unlink(session.access_token, 'not-an-id')).status).toBe(400);
  });

  it('asks a session that proved its user too long ago to reauthenticate first', async () => {
    const { email, session } = await linkedAccount();
    const [identity] = await identitiesOf(email);
    server.advanceClock(server.app.config.auth.reauthenticationWindowSeconds + 1);
    const stale = await unlink(session.access_token, identity!.id);
    expect(stale.status).toBe(401);
    expect(await stale.json()).toMatchObject({ error_code: 'reauthentication_needed' });
    expect(await identitiesOf(email)).toHaveLength(1);

    const proof = await fetch(`${server.origin}/auth/v1/reauthenticate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password }),
    });
    expect(proof.status).toBe(200);
    const fresh = (await proof.json()) as Session;
    expect((await unlink(fresh.access_token, identity!.id)).status).toBe(200);
    expect(await identitiesOf(email)).toHaveLength(0);
  });
});

describe('without Google configured', () => {
  let plain: AuthTestServer;
  beforeAll(async () => {
    plain = await startAuthTestServer();
  });
  afterAll(() => plain?.close());

  it('answers provider_disabled and reports Google disabled', async () => {
    const response = await fetch(`${plain.origin}/auth/v1/authorize?provider=google`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'provider_disabled',
      error_code: 'provider_disabled',
      msg: 'Unsupported provider: Google sign-in is not configured on this server',
    });
    const settings = (await (await fetch(`${plain.origin}/auth/v1/settings`)).json()) as {
      external: Record<string, boolean>;
    };
    expect(settings.external.google).toBe(false);
  });

  it('refuses a provider it does not know', async () => {
    const response = await fetch(`${plain.origin}/auth/v1/authorize?provider=github`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('validation_failed');
  });
});

async function usersWithEmail(email: string) {
  return server.database.db.select().from(schema.users).where(eq(schema.users.email, email));
}

async function identitiesOf(email: string) {
  const [user] = await usersWithEmail(email);
  return server.database.db.select().from(schema.identities).where(eq(schema.identities.userId, user!.id));
}
