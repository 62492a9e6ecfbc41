import { AuthWeakPasswordError } from '@supabase/auth-js';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../auth/load-signing-key.js';
import { defaultAuthRateLimits, type RateLimitRule } from '../../auth/rate-limits.js';
import { type AuthTestServer, startAuthTestServer, testPublicUrl } from './start-auth-test-server.js';

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer();
});
afterAll(() => server?.close());

let accounts = 0;
const newEmail = () => `refused${++accounts}.${Date.now()}@example.com`;
const password = 'correct horse battery';

async function signUpConfirmed(email = newEmail()) {
  await server.createClient().signUp({ email, password });
  const link = server.linkIn(await server.takeEmail(email, 'Confirm'));
  await fetch(link, { redirect: 'manual' });
  return email;
}

describe('refusals through @supabase/auth-js', () => {
  it('refuses a wrong password and an unknown address alike', async () => {
    const email = await signUpConfirmed();
    const client = server.createClient();
    const wrong = await client.signInWithPassword({ email, password: 'not the password' });
    expect(wrong.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
    const unknown = await client.signInWithPassword({ email: newEmail(), password });
    expect(unknown.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
  });

  it.each([
    ['abc', ['length', 'characters']],
    ['password123', ['pwned']],
    ['aaaaaaaa', ['characters', 'pwned']],
    ['Qwerty123', ['pwned']],
  ])('refuses the weak password %s with its reasons', async (weak, reasons) => {
    const { error } = await server.createClient().signUp({ email: newEmail(), password: weak });
    expect(error).toBeInstanceOf(AuthWeakPasswordError);
    expect(error).toMatchObject({ status: 422, code: 'weak_password', reasons });
    expect(error?.message).toContain('weak password');
  });

  it('takes a new password of 64 to 128 characters and refuses a longer one, at sign-up and change', async () => {
    const longest = 'Correct horse battery staple, '.repeat(5).slice(0, 128);
    const tooLong = `${longest}!`;
    for (const accepted of [longest.slice(0, 64), longest]) {
      const { error } = await server.createClient().signUp({ email: newEmail(), password: accepted });
      expect(error, `${accepted.length} characters`).toBeNull();
    }
    const refused = await server.createClient().signUp({ email: newEmail(), password: tooLong });
    expect(refused.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Password cannot be longer than 128 characters.',
    });

    const email = await signUpConfirmed();
    const client = server.createClient();
    await client.signInWithPassword({ email, password });
    const change = await client.updateUser({ password: tooLong });
    expect(change.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Password cannot be longer than 128 characters.',
    });
    expect((await client.updateUser({ password: longest })).error).toBeNull();
    const signedIn = await server.createClient().signInWithPassword({ email, password: longest });
    expect(signedIn.error).toBeNull();
  });

  it('refuses to sign in before the address is confirmed', async () => {
    const email = newEmail();
    await server.createClient().signUp({ email, password });
    const { error } = await server.createClient().signInWithPassword({ email, password });
    expect(error).toMatchObject({ status: 400, code: 'email_not_confirmed', message: 'Email not confirmed' });
  });

  it('refuses a username another profile has, whatever its case', async () => {
    const username = `taken${Date.now()}`;
    await server.createClient().signUp({ email: newEmail(), password, options: { data: { username } } });
    const { error } = await server
      .createClient()
      .signUp({ email: newEmail(), password, options: { data: { username: username.toUpperCase() } } });
    expect(error).toMatchObject({
      status: 422,
      code: 'username_taken',
      message: 'Username is already taken',
    });
  });

  it('sends an unknown or expired link back to the site with the reason in the fragment', async () => {
    const garbage = await fetch(`${server.origin}/auth/v1/verify?token=garbage&type=signup`, {
      redirect: 'manual',
    });
    expect(garbage.status).toBe(303);
    const target = new URL(garbage.headers.get('location')!);
    expect(target.origin).toBe(testPublicUrl);
    expect(Object.fromEntries(new URLSearchParams(target.hash.slice(1)))).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    });

    const email = newEmail();
    await server.createClient().signUp({ email, password });
    const link = server.linkIn(await server.takeEmail(email, 'Confirm'));
    server.advanceClock(25 * 3600);
    const expired = await fetch(link, { redirect: 'manual' });
    expect(new URL(expired.headers.get('location')!).hash).toContain('error_code=otp_expired');
  });
});

describe('bad input', () => {
  const json = { 'content-type': 'application/json' };
  const forged = async () => {
    const key = await generateSigningKey();
    return new SignJWT({ session_id: '00000000-0000-4000-8000-000000000000', role: 'authenticated' })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid })
      .setIssuer(`${testPublicUrl}/auth/v1`)
      .setAudience('authenticated')
      .setSubject('00000000-0000-4000-8000-000000000001')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key.privateKey);
  };
  const factorId = '00000000-0000-4000-8000-000000000000';

  const cases: [
    string,
    string,
    string,
    Record<string, string>,
    () => Promise<string | undefined>,
    number,
    string,
  ][] = [
    ['malformed JSON', 'POST', '/signup', json, async () => '{"email":', 400, 'bad_json'],
    ['a JSON array', 'POST', '/signup', json, async () => '[]', 400, 'validation_failed'],
    [
      'a number for the e-mail',
      'POST',
      '/signup',
      json,
      async () => '{"email":42,"password":"x"}',
      400,
      'validation_failed',
    ],
    [
      'an invalid e-mail',
      'POST',
      '/signup',
      json,
      async () => '{"email":"nope","password":"correct horse"}',
      400,
      'email_address_invalid',
    ],
    [
      'no e-mail',
      'POST',
      '/signup',
      json,
      async () => '{"password":"correct horse"}',
      400,
      'validation_failed',
    ],
    [
      'no password',
      'POST',
      '/signup',
      json,
      async () => '{"email":"a@example.com"}',
      400,
      'validation_failed',
    ],
    [
      'metadata as a string',
      'POST',
      '/signup',
      json,
      async () => '{"email":"a@example.com","password":"correct horse","data":"x"}',
      400,
      'validation_failed',
    ],
    [
      'a phone number',
      'POST',
      '/signup',
      json,
      async () => '{"phone":"+15555550100","password":"correct horse"}',
      422,
      'phone_provider_disabled',
    ],
    [
      'a PKCE challenge',
      'POST',
      '/signup',
      json,
      async () => '{"email":"a@example.com","password":"correct horse","code_challenge":"abc"}',
      400,
      'validation_failed',
    ],
    [
      'text instead of JSON',
      'POST',
      '/signup',
      { 'content-type': 'text/plain' },
      async () => 'hello',
      400,
      'validation_failed',
    ],
    [
      'an unsupported media type',
      'POST',
      '/signup',
      { 'content-type': 'application/xml' },
      async () => '<a/>',
      415,
      'unsupported_media_type',
    ],
    [
      'an oversized body',
      'POST',
      '/signup',
      json,
      async () => JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(2_000_000) }),
      413,
      'payload_too_large',
    ],
    [
      'an unknown grant type',
      'POST',
      '/token?grant_type=magic',
      json,
      async () => '{}',
      400,
      'validation_failed',
    ],
    ['no grant type', 'POST', '/token', json, async () => '{}', 400, 'validation_failed'],
    [
      'a password grant without fields',
      'POST',
      '/token?grant_type=password',
      json,
      async () => '{}',
      400,
      'validation_failed',
    ],
    [
      'a refresh grant without a token',
      'POST',
      '/token?grant_type=refresh_token',
      json,
      async () => '{}',
      400,
      'validation_failed',
    ],
    [
      'a garbage refresh token',
      'POST',
      '/token?grant_type=refresh_token',
      json,
      async () => '{"refresh_token":"garbage"}',
      400,
      'refresh_token_not_found',
    ],
    [
      'a refresh token of the wrong type',
      'POST',
      '/token?grant_type=refresh_token',
      json,
      async () => '{"refresh_token":["a"]}',
      400,
      'validation_failed',
    ],
    ['no bearer token', 'GET', '/user', {}, async () => undefined, 401, 'no_authorization'],
    [
      'another scheme',
      'GET',
      '/user',
      { authorization: 'Basic YTpi' },
      async () => undefined,
      401,
      'no_authorization',
    ],
    [
      'a garbage token',
      'GET',
      '/user',
      { authorization: 'Bearer garbage' },
      async () => undefined,
      403,
      'bad_jwt',
    ],
    ['an empty JSON body without a token', 'POST', '/logout', json, async () => '', 401, 'no_authorization'],
    [
      'an unknown sign-out scope',
      'POST',
      '/logout?scope=everything',
      json,
      async () => '',
      400,
      'validation_failed',
    ],
    [
      'a user update without a token',
      'PUT',
      '/user',
      json,
      async () => '{"data":{}}',
      401,
      'no_authorization',
    ],
    [
      'a verification without token or code',
      'POST',
      '/verify',
      json,
      async () => '{"type":"signup"}',
      400,
      'validation_failed',
    ],
    [
      'an unknown verification type',
      'POST',
      '/verify',
      json,
      async () => '{"type":"bogus","token_hash":"x"}',
      400,
      'validation_failed',
    ],
    [
      'a garbage link token',
      'POST',
      '/verify',
      json,
      async () => '{"type":"signup","token_hash":"garbage"}',
      403,
      'otp_expired',
    ],
    [
      'a link without its token',
      'GET',
      '/verify?type=signup',
      {},
      async () => undefined,
      400,
      'validation_failed',
    ],
    ['a recovery without an e-mail', 'POST', '/recover', json, async () => '{}', 400, 'validation_failed'],
    [
      'a non-boolean create_user',
      'POST',
      '/otp',
      json,
      async () => '{"email":"a@example.com","create_user":"yes"}',
      400,
      'validation_failed',
    ],
    [
      'a resend of an unknown type',
      'POST',
      '/resend',
      json,
      async () => '{"type":"letter","email":"a@example.com"}',
      400,
      'validation_failed',
    ],
    [
      'a factor id that is no UUID',
      'POST',
      '/factors/not-a-uuid/challenge',
      json,
      async () => '{}',
      400,
      'validation_failed',
    ],
    [
      'a factor removal without a token',
      'DELETE',
      `/factors/${factorId}`,
      json,
      async () => '',
      401,
      'no_authorization',
    ],
    ['an unknown route', 'GET', '/nothing-here', {}, async () => undefined, 404, 'not_found'],
  ];

  it.each(cases)(
    'answers %s with a GoTrue error, never a 500',
    async (_name, method, path, headers, body, status, code) => {
      const response = await fetch(`${server.origin}/auth/v1${path}`, {
        method,
        headers,
        body: await body(),
      });
      const text = await response.text();
      expect(response.status, text).toBe(status);
      expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01');
      const parsed = JSON.parse(text);
      expect(parsed).toMatchObject({ code, error_code: code });
      expect(parsed.msg).toBe(parsed.message);
      expect(typeof parsed.message).toBe('string');
      expect(text).not.toMatch(/stack|at .*\.ts:\d+/);
    },
  );

  it('refuses a well-formed token signed by another key', async () => {
    const response = await fetch(`${server.origin}/auth/v1/user`, {
      headers: { authorization: `Bearer ${await forged()}` },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'bad_jwt' });
  });

  it('refuses an expired access token', async () => {
    const email = await signUpConfirmed();
    const { data } = await server.createClient().signInWithPassword({ email, password });
    server.advanceClock(3601);
    const response = await fetch(`${server.origin}/auth/v1/user`, {
      headers: { authorization: `Bearer ${data.session!.access_token}` },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'bad_jwt' });
  });
});

describe('rate limits', () => {
  let limited: AuthTestServer;
  beforeAll(async () => {
    // Small limits: 4 requests per client address, 2 per account, in every window.
    const small = (rule: RateLimitRule, limit: number) => ({ ...rule, limit });
    limited = await startAuthTestServer({
      authLimits: {
        rateLimits: {
          ...defaultAuthRateLimits,
          signUpPerIp: small(defaultAuthRateLimits.signUpPerIp, 4),
          signUpPerAccount: small(defaultAuthRateLimits.signUpPerAccount, 2),
          emailPerIp: small(defaultAuthRateLimits.emailPerIp, 4),
          emailPerAccount: small(defaultAuthRateLimits.emailPerAccount, 2),
        },
      },
    });
  });
  afterAll(() => limited?.close());

  it('limits sign-up, and the e-mail sending endpoints together', async () => {
    const client = limited.createClient();
    for (const index of [1, 2, 3, 4]) {
      const { error } = await client.signUp({ email: `limited${index}@example.com`, password });
      expect(error).toBeNull();
    }
    expect((await client.signUp({ email: 'limited5@example.com', password })).error?.code).toBe(
      'over_request_rate_limit',
    );

    expect((await client.resetPasswordForEmail('limited1@example.com')).error).toBeNull();
    expect((await client.resetPasswordForEmail('limited1@example.com')).error).toBeNull();
    expect((await client.resetPasswordForEmail('limited1@example.com')).error?.code).toBe(
      'over_request_rate_limit',
    );
    // recover and otp count against the same per-address budget: this is the fifth e-mail request.
    expect((await client.signInWithOtp({ email: 'limited2@example.com' })).error).toBeNull();
    expect((await client.signInWithOtp({ email: 'limited3@example.com' })).error?.code).toBe(
      'over_request_rate_limit',
    );
  });
});
