import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';

// Every authenticated operation of the OpenAPI document, called with no token and as a second user
// against the first user's resources: nothing of the owner's is read or changed.
let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
let owner: TestTrader;
let intruder: TestTrader;
const owned: Record<string, string> = {};
let operations: Array<{ method: string; path: string }> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  app = testApp.app;
  owner = await createTestTrader(app);
  intruder = await createTestTrader(app);
  const counterparty = await createTestTrader(app);
  const headers = { authorization: `Bearer ${owner.token}` };
  const deal = await app.inject({
    method: 'POST',
    url: '/api/v1/deals',
    headers,
    payload: {
      asset_chain: 'ETH',
      asset_symbol: 'WBTC',
      asset_amount: '100000000',
      stable_chain: 'ETH',
      stable_symbol: 'USDT',
      stable_amount: '60000000000',
      counterparty_id: counterparty.id,
    },
  });
  owned.deal = deal.json().id;
  const key = await app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers,
    payload: { name: 'mine' },
  });
  owned.apiKey = key.json().id;
  owned.apiKeySecret = key.json().key;
  const [endpoint] = await database.db
    .insert(schema.webhookEndpoints)
    .values({ userId: owner.id, url: 'http://127.0.0.1:9/hook', events: ['deal.created'], secret: 'whsec_x' })
    .returning();
  owned.webhook = endpoint!.id;
  const [delivery] = await database.db
    .insert(schema.webhookDeliveries)
    .values({ endpointId: endpoint!.id, event: 'deal.created', body: '{}' })
    .returning();
  owned.delivery = delivery!.id;

  const document = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  operations = Object.entries(
    document.paths as Record<string, Record<string, { security?: unknown[] }>>,
  ).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => (operation.security?.length ?? 0) > 0)
      .map(([method]) => ({ method: method.toUpperCase(), path })),
  );
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

/** The owner's resource for each path parameter, chosen by the path's area. */
function urlFor(path: string): string {
  const filled = path
    .replace('{delivery_id}', owned.delivery!)
    .replace('{id}', () => {
      if (path.startsWith('/deals')) return owned.deal!;
      if (path.startsWith('/api-keys')) return owned.apiKey!;
      if (path.startsWith('/webhooks')) return owned.webhook!;
      return owned.deal!;
    })
    .replace(/\{[a-z_]+\}/g, owned.deal!);
  return `/api/v1${filled}`;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

describe('authorization matrix over every authenticated /api/v1 operation', () => {
  it('covers the operations of every area', () => {
    const listed = operations.map((operation) => `${operation.method} ${operation.path}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        'GET /deals/{id}',
        'PUT /deals/{id}/terms',
        'DELETE /api-keys/{id}',
        'POST /webhooks/{id}/deliveries/{delivery_id}/replay',
        'GET /wallets/balance',
        'GET /user/profile',
        'GET /partners',
        'POST /kyc',
      ]),
    );
    expect(listed.length).toBeGreaterThanOrEqual(20);
  });

  it('answers 401 without a token, with rate-limit headers', async () => {
    for (const { method, path } of operations) {
      const response = await app.inject({ method: method as Method, url: urlFor(path), payload: {} });
      expect(response.statusCode, `${method} ${path}`).toBe(401);
      expect(response.json().error.code, `${method} ${path}`).toBe('UNAUTHORIZED');
      expect(response.headers['x-ratelimit-limit'], `${method} ${path}`).toBeDefined();
    }
  });

  it('never shows or changes the owner’s resources to a second user', async () => {
    const ownerIds = [owned.deal!, owned.apiKey!, owned.webhook!, owned.delivery!];
    for (const { method, path } of operations) {
      const response = await app.inject({
        method: method as Method,
        url: urlFor(path),
        headers: { authorization: `Bearer ${intruder.token}` },
        payload: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      const label = `${method} ${path} → ${response.statusCode}`;
      expect(response.statusCode === 501 || response.statusCode < 500, label).toBe(true);
      if (path.includes('{')) expect([400, 403, 404, 415, 501], label).toContain(response.statusCode);
      for (const id of ownerIds) expect(response.body, label).not.toContain(id);
    }
    const [deal] = await database.db.select().from(schema.deals).where(eq(schema.deals.id, owned.deal!));
    expect(deal).toMatchObject({ assetAmount: '100000000', stableAmount: '60000000000', status: 'draft' });
    const keys = await database.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, owned.apiKey!));
    expect(keys).toHaveLength(1);
    const hooks = await database.db
      .select()
      .from(schema.webhookEndpoints)
      .where(eq(schema.webhookEndpoints.id, owned.webhook!));
    expect(hooks).toHaveLength(1);
  });

  it('lets the owner’s API key reach the same deal as the owner', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/deals/${owned.deal}`,
      headers: { authorization: `Bearer ${owned.apiKeySecret}` },
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a signed-out session at once, though its token was verified before', async () => {
    const leaving = await createTestTrader(app);
    const headers = { authorization: `Bearer ${leaving.token}` };
    expect((await app.inject({ method: 'GET', url: '/api/v1/deals', headers })).statusCode).toBe(200);
    await database.db.delete(schema.sessions).where(eq(schema.sessions.userId, leaving.id));
    const after = await app.inject({ method: 'GET', url: '/api/v1/deals', headers });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('UNAUTHORIZED');
  });
});
