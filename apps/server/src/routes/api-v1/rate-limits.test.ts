import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

async function spend(token: string, times: number) {
  const responses = [];
  for (let i = 0; i < times; i++) {
    responses.push(
      await app.inject({
        method: 'GET',
        url: '/api/v1/deals',
        headers: { authorization: `Bearer ${token}` },
      }),
    );
  }
  return responses;
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
