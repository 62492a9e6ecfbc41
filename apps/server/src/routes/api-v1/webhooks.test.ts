import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createDeliverWebhookJob } from '../../jobs/deliver-webhook-job.js';
import { type JobQueue, startJobs } from '../../jobs/start-jobs.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let database: Database;
let jobs: JobQueue;
let testApp: TestApp;
let app: FastifyInstance;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** How many more requests each path answers with 500 before it answers 200. */
const failuresLeft: Record<string, number> = {
  '/buyer': 2,
  '/seller': 0,
  '/broken': Number.POSITIVE_INFINITY,
};
let buyer: TestTrader;
let seller: TestTrader;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body });
      const failing = (failuresLeft[path] ?? 0) > 0;
      if (failing) failuresLeft[path] = (failuresLeft[path] ?? 0) - 1;
      response.statusCode = failing ? 500 : 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  database = await createTestDatabase();
  // One-second steps stand in for the production backoff (30 s doubling).
  const deliverWebhookJob = createDeliverWebhookJob({
    db: database.db,
    now: () => new Date(),
    allowPrivateTargets: true,
    retryLimit: 2,
    retryDelaySeconds: 1,
  });
  jobs = await startJobs({
    database,
    logger: pino({ level: 'silent' }),
    jobs: [deliverWebhookJob],
    pollingIntervalSeconds: 0.5,
  });
  testApp = await buildTestApp({ database, env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, jobs, deliverWebhookJob });
  app = testApp.app;
  buyer = await createTestTrader(app);
  seller = await createTestTrader(app);
});
afterAll(async () => {
  await testApp?.close();
  await jobs?.stop();
  await database?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

function call(method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    payload: payload as Record<string, unknown> | undefined,
  });
}

async function register(token: string, path: string) {
  const response = await call('POST', '/api/v1/webhooks', token, {
    url: `${receiverUrl}${path}`,
    events: ['deal.created'],
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; secret: string; url: string; events: string[] };
}

function verify(secret: string, delivery: Received): { t: number; payload: Record<string, unknown> } {
  const header = String(delivery.headers['covenant-signature']);
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  expect(match, header).not.toBeNull();
  const expected = createHmac('sha256', secret).update(`${match![1]}.${delivery.body}`).digest('hex');
  expect(match![2]).toBe(expected);
  return { t: Number(match![1]), payload: JSON.parse(delivery.body) };
}

const dealBody = (counterpartyId: string) => ({
  asset_chain: 'ETH',
  asset_symbol: 'ETH',
  asset_amount: '25000000000000000000',
  stable_chain: 'ETH',
  stable_symbol: 'USDC',
  stable_amount: '50000000000',
  counterparty_id: counterpartyId,
});

describe('webhooks', () => {
  it('replays a registration made with an Idempotency-Key, its secret kept only sealed', async () => {
    const key = `webhook-${Date.now()}`;
    const registerOnce = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: { authorization: `Bearer ${seller.token}`, 'idempotency-key': key },
        payload: { url: `${receiverUrl}/seller`, events: ['deal.created'] },
      });
    const first = await registerOnce();
    const again = await registerOnce();
    expect(first.statusCode).toBe(201);
    expect(first.json().secret).toMatch(/^whsec_/);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const [stored] = await database.db
      .select()
      .from(schema.idempotencyKeys)
      .where(eq(schema.idempotencyKeys.key, key));
    expect(stored?.responseBody).toMatch(/^sealed:v1:/);
    expect(JSON.stringify(stored)).not.toContain(first.json().secret);
    await call('DELETE', `/api/v1/webhooks/${first.json().id}`, seller.token);
  });

  it('signs deal.created to both parties and retries a failing receiver with backoff, logging every attempt', async () => {
    const buyerHook = await register(buyer.token, '/buyer');
    const sellerHook = await register(seller.token, '/seller');
    expect(buyerHook.secret).toMatch(/^whsec_/);
    const listed = (await call('GET', '/api/v1/webhooks', buyer.token)).json();
    expect(listed.data).toEqual([
      { id: buyerHook.id, url: buyerHook.url, events: ['deal.created'], created_at: expect.any(String) },
    ]);

    const deal = (await call('POST', '/api/v1/deals', buyer.token, dealBody(seller.id))).json();

    await expect.poll(() => received.filter((r) => r.path === '/buyer').length, { timeout: 20_000 }).toBe(3);
    await expect.poll(() => received.filter((r) => r.path === '/seller').length, { timeout: 5_000 }).toBe(1);
    const toSeller = received.find((r) => r.path === '/seller')!;
    const { t, payload } = verify(sellerHook.secret, toSeller);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(30);
    expect(toSeller.headers['covenant-event']).toBe('deal.created');
    expect(payload).toMatchObject({
      type: 'deal.created',
      data: {
        deal_id: deal.id,
        buyer_id: buyer.id,
        seller_id: seller.id,
        asset_chain: 'ETH',
        created_at: deal.created_at,
      },
    });
    const toBuyer = received.filter((r) => r.path === '/buyer');
    for (const attempt of toBuyer) verify(buyerHook.secret, attempt);
    // Every attempt carries the same body; the other party's secret does not verify it.
    expect(new Set(toBuyer.map((r) => r.body)).size).toBe(1);
    expect(() => verify(sellerHook.secret, toBuyer[0]!)).toThrow();

    await expect
      .poll(
        async () =>
          (await call('GET', `/api/v1/webhooks/${buyerHook.id}/deliveries`, buyer.token)).json().data[0]
            ?.status,
      )
      .toBe('succeeded');
    const [delivery] = (await call('GET', `/api/v1/webhooks/${buyerHook.id}/deliveries`, buyer.token)).json()
      .data;
    expect(delivery).toMatchObject({ event: 'deal.created', attempt_count: 3 });
    expect(delivery.attempts.map((a: { response_status: number }) => a.response_status)).toEqual([
      500, 500, 200,
    ]);
    expect(delivery.attempts[0].error).toBe('HTTP 500');

    // Replay sends the same body again with a fresh signature.
    const replay = await call(
      'POST',
      `/api/v1/webhooks/${buyerHook.id}/deliveries/${delivery.id}/replay`,
      buyer.token,
    );
    expect(replay.statusCode).toBe(202);
    await expect.poll(() => received.filter((r) => r.path === '/buyer').length, { timeout: 10_000 }).toBe(4);
    const replayed = received.filter((r) => r.path === '/buyer')[3]!;
    expect(replayed.body).toBe(toBuyer[0]!.body);
    verify(buyerHook.secret, replayed);

    // Nobody else reads, replays or deletes it.
    for (const [method, url] of [
      ['GET', `/api/v1/webhooks/${buyerHook.id}/deliveries`],
      ['POST', `/api/v1/webhooks/${buyerHook.id}/deliveries/${delivery.id}/replay`],
      ['DELETE', `/api/v1/webhooks/${buyerHook.id}`],
    ] as const) {
      expect((await call(method, url, seller.token)).statusCode).toBe(404);
    }
    expect((await call('DELETE', `/api/v1/webhooks/${buyerHook.id}`, buyer.token)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/v1/webhooks/${sellerHook.id}`, seller.token)).statusCode).toBe(204);
  });

  it('marks a delivery failed once its retries are used up', async () => {
    const trader = await createTestTrader(app);
    const hook = await register(trader.token, '/broken');
    await call('POST', '/api/v1/deals', trader.token, dealBody(seller.id));
    // One attempt plus two retries.
    await expect
      .poll(
        async () =>
          (await call('GET', `/api/v1/webhooks/${hook.id}/deliveries`, trader.token)).json().data[0]?.status,
        { timeout: 25_000 },
      )
      .toBe('failed');
    const [delivery] = (await call('GET', `/api/v1/webhooks/${hook.id}/deliveries`, trader.token)).json()
      .data;
    expect(delivery.attempt_count).toBe(3);
  });

  it('refuses unknown events', async () => {
    const response = await call('POST', '/api/v1/webhooks', buyer.token, {
      url: `${receiverUrl}/x`,
      events: ['deal.exploded'],
    });
    expect(response.statusCode).toBe(400);
  });
});
