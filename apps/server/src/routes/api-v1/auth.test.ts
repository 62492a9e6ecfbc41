import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthTestServer, startAuthTestServer } from '../auth-v1/start-auth-test-server.js';

// With confirmation switched off, sign-up signs in at once (the same switch the README lists).
let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer({ env: { AUTH_REQUIRE_EMAIL_CONFIRMATION: 'false' } });
});
afterAll(() => server?.close());

const password = 'correct horse battery';

function post(path: string, body: unknown) {
  return fetch(`${server.origin}/api/v1/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function signUp(): Promise<string> {
  const email = `api.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
  const { data, error } = await server.createClient().signUp({ email, password });
  expect(error).toBeNull();
  expect(data.session?.access_token).toBeTruthy();
  return email;
}

describe('POST /api/v1/auth/login and /refresh', () => {
  it('logs in with e-mail and password and refreshes, sharing the sessions of /auth/v1', async () => {
    const email = await signUp();
    const login = await post('/login', { email, password });
    expect(login.status).toBe(200);
    const tokens = (await login.json()) as Record<string, unknown>;
    expect(Object.keys(tokens).sort()).toEqual([
      'access_token',
      'expires_at',
      'expires_in',
      'refresh_token',
      'token_type',
    ]);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600 });

    const user = await server.createClient().getUser(tokens.access_token as string);
    expect(user.data.user?.email).toBe(email);

    const refresh = await post('/refresh', { refresh_token: tokens.refresh_token });
    expect(refresh.status).toBe(200);
    const refreshed = (await refresh.json()) as Record<string, unknown>;
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  });

  it('answers refusals in the API error shape', async () => {
    const email = await signUp();
    const wrong = await post('/login', { email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    const body = (await wrong.json()) as { error: Record<string, unknown> };
    expect(body.error).toEqual({
      code: 'INVALID_CREDENTIALS',
      message: 'Invalid login credentials',
      details: { reason: 'invalid_credentials' },
      timestamp: expect.any(String),
    });
    expect(new Date(body.error.timestamp as string).getTime()).not.toBeNaN();

    const missing = await post('/login', { email });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');

    const garbage = await post('/refresh', { refresh_token: 'garbage' });
    expect(garbage.status).toBe(401);
    expect(await garbage.json()).toMatchObject({
      error: { code: 'UNAUTHORIZED', details: { reason: 'refresh_token_not_found' } },
    });

    const malformed = await fetch(`${server.origin}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { code: 'INVALID_JSON' } });
  });
});
