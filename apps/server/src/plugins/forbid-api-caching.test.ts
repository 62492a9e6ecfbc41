import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/hash-password.js';
import { buildTestApp, type TestApp } from '../build-test-app.js';
import { createTestTrader, type TestTrader } from '../testing/create-test-trader.js';

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
let trader: TestTrader;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database });
  app = testApp.app;
  trader = await createTestTrader(app);
  await database.db
    .update(schema.users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(schema.users.id, trader.id));
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
const password = 'cache-test password 7';
const unknownId = '00000000-0000-4000-8000-000000000000';

describe('Cache-Control on the APIs', () => {
  it('is no-store on every /api/v1 operation of the OpenAPI document, signed in or not, errors included', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(60);
    for (const { method, path } of operations) {
      const url = `/api/v1${path.replace(/\{[a-z_]+\}/g, unknownId)}`;
      for (const headers of [{}, { authorization: `Bearer ${trader.token}` }]) {
        const response = await app.inject({ method: method as Method, url, headers, payload: {} });
        expect(response.headers['cache-control'], `${method} ${path}`).toBe('no-store');
      }
    }
  });

  it('is no-store on the tokens of a sign-in, on every /auth/v1 route, and on the 404s', async () => {
    for (const url of ['/auth/v1/token?grant_type=password', '/api/v1/auth/login']) {
      const signedIn = await app.inject({ method: 'POST', url, payload: { email: trader.email, password } });
      expect(signedIn.statusCode, url).toBe(200);
      expect(signedIn.json().access_token, url).toBeTypeOf('string');
      expect(signedIn.headers['cache-control'], url).toBe('no-store');
    }
    for (const [method, url, payload] of [
      ['POST', '/auth/v1/token?grant_type=password', { email: trader.email, password: 'wrong one' }],
      ['POST', '/auth/v1/signup', { email: 'cache@example.com', password: 'a long enough password 1' }],
      ['POST', '/auth/v1/token?grant_type=refresh_token', { refresh_token: 'nope' }],
      ['GET', '/auth/v1/user', undefined],
      ['PUT', '/auth/v1/user', { password: 'x' }],
      ['GET', '/auth/v1/settings', undefined],
      ['GET', '/auth/v1/health', undefined],
      ['GET', '/auth/v1/verify?token=nope&type=signup', undefined],
      ['POST', '/auth/v1/recover', { email: 'cache@example.com' }],
      ['POST', '/auth/v1/verify', { type: 'signup', token_hash: 'nope' }],
      ['POST', '/auth/v1/otp', { email: 'cache@example.com' }],
      ['POST', '/auth/v1/resend', { type: 'signup', email: 'cache@example.com' }],
      ['GET', '/auth/v1/reauthenticate', undefined],
      ['POST', '/auth/v1/factors', { factor_type: 'totp' }],
      ['POST', `/auth/v1/factors/${unknownId}/challenge`, {}],
      ['POST', `/auth/v1/factors/${unknownId}/verify`, { code: '123456' }],
      ['DELETE', `/auth/v1/factors/${unknownId}`, undefined],
      ['POST', '/auth/v1/logout', undefined],
      ['GET', '/auth/v1/no-such-route', undefined],
      ['GET', '/api/v1/no-such-route', undefined],
    ] as const) {
      const response = await app.inject({ method, url, payload });
      expect(response.headers['cache-control'], `${method} ${url}`).toBe('no-store');
    }
  });

  it('leaves the public signing keys cacheable and the web app’s own policy alone', async () => {
    const keys = await app.inject({ method: 'GET', url: '/auth/v1/.well-known/jwks.json' });
    expect(keys.headers['cache-control']).toBe('public, max-age=600');
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.headers['cache-control']).toBeUndefined();
  });
});
