import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
let owner: TestTrader;
let other: TestTrader;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database });
  app = testApp.app;
  owner = await createTestTrader(app);
  other = await createTestTrader(app);
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('API keys', () => {
  it('creates a key shown once, stores only its hash, authenticates with it and revokes it', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: bearer(owner.token),
      payload: { name: 'Trading bot' },
    });
    expect(created.statusCode).toBe(201);
    const key = created.json();
    expect(key).toMatchObject({ name: 'Trading bot', last_used_at: null });
    expect(key.key).toMatch(/^cov_live_[A-Za-z0-9_-]{43}$/);
    expect(key.key.startsWith(key.prefix)).toBe(true);

    const [stored] = await database.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, key.id));
    expect(JSON.stringify(stored)).not.toContain(key.key);

    const deals = await app.inject({ method: 'GET', url: '/api/v1/deals', headers: bearer(key.key) });
    expect(deals.statusCode).toBe(200);
    const listed = await app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: bearer(owner.token) });
    expect(listed.json().data).toEqual([
      {
        id: key.id,
        name: 'Trading bot',
        prefix: key.prefix,
        created_at: key.created_at,
        last_used_at: expect.any(String),
        scopes: ['read'],
      },
    ]);
    expect(JSON.stringify(listed.json())).not.toContain(key.key);

    // Another user neither sees nor revokes it.
    const theirs = await app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: bearer(other.token) });
    expect(theirs.json().data).toEqual([]);
    const stranger = await app.inject({
      method: 'DELETE',
      url: `/api/v1/api-keys/${key.id}`,
      headers: bearer(other.token),
    });
    expect(stranger.statusCode).toBe(404);

    // A key cannot manage keys.
    const byKey = await app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: bearer(key.key) });
    expect(byKey.statusCode).toBe(403);

    const revoked = await app.inject({
      method: 'DELETE',
      url: `/api/v1/api-keys/${key.id}`,
      headers: bearer(owner.token),
    });
    expect(revoked.statusCode).toBe(204);
    const after = await app.inject({ method: 'GET', url: '/api/v1/deals', headers: bearer(key.key) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('UNAUTHORIZED');
  });

  it('refuses unknown keys, malformed tokens and missing names', async () => {
    for (const authorization of ['Bearer cov_live_nope', 'Bearer not.a.jwt', 'Basic abc', '']) {
      const response = await app.inject({ method: 'GET', url: '/api/v1/deals', headers: { authorization } });
      expect(response.statusCode).toBe(401);
    }
    const nameless = await app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: bearer(owner.token),
      payload: { name: '  ' },
    });
    expect(nameless.statusCode).toBe(400);
  });
});

describe('escrow routes for a deal that is not the caller’s', () => {
  const unknownDeal = '00000000-0000-4000-8000-000000000000';
  it.each([
    ['POST', '/api/v1/escrow/create', { deal_id: unknownDeal }],
    [
      'POST',
      '/api/v1/escrow/fund',
      { deal_id: unknownDeal, transaction_hash: `0x${'ab'.repeat(32)}`, chain: 'ETH', amount: '1' },
    ],
    ['GET', `/api/v1/escrow/${unknownDeal}/status`, undefined],
    ['GET', `/api/v1/deals/${unknownDeal}/escrow`, undefined],
    [
      'POST',
      '/api/v1/escrow/release',
      { deal_id: unknownDeal, leg: 'asset', signature: `0x${'ab'.repeat(65)}` },
    ],
  ] as const)('%s %s answers 404 NOT_FOUND', async (method, url, payload) => {
    const response = await app.inject({ method, url, headers: bearer(owner.token), payload });
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });

  // Refused before the deal is looked up: viem and @solana/kit throw on them, which was a 500.
  it.each([
    ['ETH', 'not-a-hash', /0x and 64 hex digits/],
    ['ETH', '0xabc', /0x and 64 hex digits/],
    ['BTC', `0x${'ab'.repeat(32)}`, /64 hex digits/],
    ['SOL', 'x', /64 bytes in base58/],
    ['SOL', `0x${'ab'.repeat(32)}`, /64 bytes in base58/],
  ])(
    'refuses a deposit report on %s whose transaction_hash is %s, naming the field',
    async (chain, hash, why) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/escrow/fund',
        headers: bearer(owner.token),
        payload: { deal_id: unknownDeal, transaction_hash: hash, chain, amount: '1' },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { in: 'body', issues: [{ path: '/transaction_hash', message: expect.stringMatching(why) }] },
      });
    },
  );

  it('refuses a release whose signature is not 65 bytes of hex', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/escrow/release',
      headers: bearer(owner.token),
      payload: { deal_id: unknownDeal, leg: 'asset', signature: '0x1234' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('replays a key created with an Idempotency-Key, keeping only a sealed copy of the answer', async () => {
    const headers = { ...bearer(owner.token), 'idempotency-key': `key-${Date.now()}` };
    const create = () =>
      app.inject({ method: 'POST', url: '/api/v1/api-keys', headers, payload: { name: 'Retried bot' } });
    const first = await create();
    const again = await create();
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // The same key, not a second one: a client whose first answer was lost still learns its key.
    expect(again.json()).toEqual(first.json());
    const listed = await app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: bearer(owner.token) });
    expect(listed.json().data.filter((key: { name: string }) => key.name === 'Retried bot')).toHaveLength(1);

    const [stored] = await database.db
      .select()
      .from(schema.idempotencyKeys)
      .where(eq(schema.idempotencyKeys.key, headers['idempotency-key']));
    expect(stored?.statusCode).toBe(201);
    expect(stored?.responseBody).toMatch(/^sealed:v1:[A-Za-z0-9+/]+=*$/);
    expect(JSON.stringify(stored)).not.toContain(first.json().key);
    expect(JSON.stringify(stored)).not.toContain('Retried bot');
  });
});
