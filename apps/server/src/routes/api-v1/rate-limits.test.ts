import { randomBytes } from 'node:crypto';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../api/api-key-token.js';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createTestTrader } from '../../testing/create-test-trader.js';

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
const now = new Date('2030-01-01T10:15:00Z');

// Small limits stand in for 1000 and 10000 per hour.
beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({
    database,
    clock: () => now,
    env: { API_RATE_LIMIT_STANDARD: '3', API_RATE_LIMIT_PREMIUM: '5' },
  });
  app = testApp.app;
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

async function spend(token: string, times: number, remoteAddress?: string) {
  const responses = [];
  for (let i = 0; i < times; i++) {
    responses.push(
      await app.inject({
        method: 'GET',
        url: '/api/v1/deals',
        headers: { authorization: `Bearer ${token}` },
        remoteAddress,
      }),
    );
  }
  return responses;
}

/** A key in the form of a real one (`cov_live_` and 43 base64url characters) that nobody was given. */
const madeUpKey = () => `cov_live_${randomBytes(32).toString('base64url')}`;

async function createKey(token: string, name: string): Promise<{ id: string; key: string }> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers: { authorization: `Bearer ${token}` },
    payload: { name },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json();
}

describe('per-tier rate limits', () => {
  it('count per user with X-RateLimit-* headers and refuse with 429 and Retry-After', async () => {
    const trader = await createTestTrader(app);
    const responses = await spend(trader.token, 4);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    expect(responses.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    expect(responses[0]!.headers['x-ratelimit-limit']).toBe('3');
    const resetAt = Number(responses[0]!.headers['x-ratelimit-reset']);
    expect(resetAt).toBeGreaterThan(now.getTime() / 1000);
    expect(resetAt).toBeLessThanOrEqual(now.getTime() / 1000 + 3600);
    const refused = responses[3]!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 3 } });

    // Another user has their own budget.
    const other = await createTestTrader(app);
    expect((await spend(other.token, 1))[0]!.statusCode).toBe(200);
  });

  it('give Premium users the higher limit', async () => {
    const premium = await createTestTrader(app, { apiTier: 'premium' });
    const responses = await spend(premium.token, 6);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(responses[0]!.headers['x-ratelimit-limit']).toBe('5');
  });

  it('count each API key on its own', async () => {
    const trader = await createTestTrader(app);
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: { authorization: `Bearer ${trader.token}` },
      payload: { name: 'bot' },
    });
    const key = created.json().key as string;
    const responses = await spend(key, 4);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
  });

  it('count tokens that are no access token against the address, and refuse with 429 once it is spent', async () => {
    const responses = [];
    for (const token of ['not-a-jwt', 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln', 'a.b.c', 'still-not-a-jwt']) {
      responses.push(...(await spend(token, 1, '203.0.113.20')));
    }
    expect(responses.map((r) => r.statusCode)).toEqual([401, 401, 401, 429]);
    expect(responses.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    expect(responses[3]!.json().error.code).toBe('RATE_LIMITED');
  });

  it('count made-up and revoked API keys against the address like bad tokens, keeping no counter per key', async () => {
    const trader = await createTestTrader(app);
    const revoked = await createKey(trader.token, 'revoked');
    const revoke = await app.inject({
      method: 'DELETE',
      url: `/api/v1/api-keys/${revoked.id}`,
      headers: { authorization: `Bearer ${trader.token}` },
    });
    expect(revoke.statusCode, revoke.body).toBe(204);
    // A new random key on every request: counted per key, none would ever reach its limit.
    const keys = [madeUpKey(), madeUpKey(), revoked.key, madeUpKey(), madeUpKey()];
    const responses = [];
    for (const key of keys) responses.push(...(await spend(key, 1, '203.0.113.21')));
    expect(responses.map((r) => r.statusCode)).toEqual([401, 401, 401, 429, 429]);
    expect(responses[0]!.json().error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'The API key is invalid or revoked',
    });
    expect(responses.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0', '0']);
    expect(Number(responses[3]!.headers['retry-after'])).toBeGreaterThan(0);
    const perKey = await database.db
      .select()
      .from(schema.rateLimits)
      .where(
        inArray(
          schema.rateLimits.key,
          keys.map((key) => `api:key:${hashApiKey(key).slice(0, 32)}`),
        ),
      );
    expect(perKey).toEqual([]);

    // A real key from the same address still has its own budget, counted per key.
    const real = await createKey(trader.token, 'real');
    const allowed = await spend(real.key, 1, '203.0.113.21');
    expect(allowed.map((r) => r.statusCode)).toEqual([200]);
    expect(allowed[0]!.headers['x-ratelimit-remaining']).toBe('2');
    const counters = await database.db
      .select({ key: schema.rateLimits.key })
      .from(schema.rateLimits)
      .where(eq(schema.rateLimits.key, `api:key:${hashApiKey(real.key).slice(0, 32)}`));
    expect(counters).toHaveLength(1);
  });

  it('put the headers on refusals without a token and on public routes', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/api/v1/deals', remoteAddress: '203.0.113.7' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['x-ratelimit-limit']).toBe('3');
    const login = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: '203.0.113.8',
      payload: { email: 'nobody@example.com', password: 'x' },
    });
    expect(login.headers['x-ratelimit-remaining']).toBe('2');
    const unknown = await app.inject({
      method: 'GET',
      url: '/api/v1/no-such-thing',
      remoteAddress: '203.0.113.9',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
    expect(unknown.headers['x-ratelimit-limit']).toBe('3');
  });
});
