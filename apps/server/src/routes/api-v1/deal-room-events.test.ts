import type { AddressInfo } from 'node:net';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';
import { placeholderLeg } from '../../testing/insert-escrow-rows.js';
import { openEventStream } from '../../testing/open-event-stream.js';

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
let baseUrl: string;
let buyer: TestTrader;
let seller: TestTrader;
let outsider: TestTrader;
let mediator: TestTrader;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database });
  app = testApp.app;
  // A real server: inject would buffer the stream until it ends.
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  buyer = await createTestTrader(app);
  seller = await createTestTrader(app);
  outsider = await createTestTrader(app);
  mediator = await createTestTrader(app, { roles: ['mediator'] });
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

function call(method: 'GET' | 'POST', url: string, token: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    payload: payload as Record<string, unknown> | undefined,
    headers: { authorization: `Bearer ${token}` },
  });
}

async function newDeal(): Promise<string> {
  const response = await call('POST', '/api/v1/deals', buyer.token, {
    asset_chain: 'ETH',
    asset_symbol: 'WBTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    counterparty_id: seller.id,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

/** A deal's event stream read over real HTTP, as the web app reads it (fetch, Bearer header). */
const openStream = (dealId: string, token: string) =>
  openEventStream(`${baseUrl}/api/v1/deals/${dealId}/events`, { authorization: `Bearer ${token}` });

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const messageEvent = 'event: deal\ndata: {"kind":"message"}\n\n';
const auditEvent = 'event: deal\ndata: {"kind":"audit"}\n\n';

describe('GET /deals/{id}/events', () => {
  it('streams the other side’s actions live to a party, unbuffered, counted once', async () => {
    const dealId = await newDeal();
    const stream = await openStream(dealId, buyer.token);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(stream.response.headers.get('x-content-type-options')).toBe('nosniff');
    const remaining = Number(stream.response.headers.get('x-ratelimit-remaining'));
    expect(remaining).toBeGreaterThan(0);
    expect(await stream.waitFor('retry: 3000\n\n')).toBe('retry: 3000\n\n');

    const message = await call('POST', `/api/v1/deals/${dealId}/messages`, seller.token, {
      body: 'Hi there',
    });
    expect(message.statusCode).toBe(201);
    await stream.waitFor(messageEvent);
    const cancelled = await call('POST', `/api/v1/deals/${dealId}/cancel`, seller.token, {
      reason: 'No longer needed',
    });
    expect(cancelled.statusCode).toBe(200);
    await stream.waitFor(auditEvent);
    expect(stream.received()).toBe(`retry: 3000\n\n${messageEvent}${auditEvent}`);

    // The stream was one request: the next one is the next in the caller's budget.
    const next = await call('GET', `/api/v1/deals/${dealId}`, buyer.token);
    expect(Number(next.headers['x-ratelimit-remaining'])).toBe(remaining - 1);
    stream.abort();
  });

  it('tells a stream only about its own deal', async () => {
    const watched = await newDeal();
    const other = await newDeal();
    const stream = await openStream(watched, seller.token);
    await stream.waitFor('retry: 3000');
    await call('POST', `/api/v1/deals/${other}/messages`, buyer.token, { body: 'On the other deal' });
    await call('POST', `/api/v1/deals/${watched}/messages`, buyer.token, { body: 'On the watched deal' });
    await stream.waitFor(messageEvent);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.received()).toBe(`retry: 3000\n\n${messageEvent}`);
    stream.abort();
  });

  it('refuses outsiders (404), callers without a token (401), and mediators until there is a dispute', async () => {
    const dealId = await newDeal();
    const outside = await fetch(`${baseUrl}/api/v1/deals/${dealId}/events`, {
      headers: { authorization: `Bearer ${outsider.token}` },
    });
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    const anonymous = await fetch(`${baseUrl}/api/v1/deals/${dealId}/events`);
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();

    const early = await fetch(`${baseUrl}/api/v1/deals/${dealId}/events`, {
      headers: { authorization: `Bearer ${mediator.token}` },
    });
    expect(early.status).toBe(404);
    await early.body?.cancel();

    await database.db
      .insert(schema.dealDisputes)
      .values({ dealId, openedBy: seller.id, reason: 'No deposit', statusBefore: 'terms_agreed' });
    const stream = await openStream(dealId, mediator.token);
    expect(stream.response.status).toBe(200);
    await call('POST', `/api/v1/deals/${dealId}/messages`, seller.token, { body: 'Mediator, please look' });
    await stream.waitFor(messageEvent);
    stream.abort();
  });

  it('announces each committed change of the deal’s escrow once, and an update that changes nothing not at all', async () => {
    const dealId = await newDeal();
    const stream = await openStream(dealId, buyer.token);
    await stream.waitFor('retry: 3000');
    const { db } = database;
    const escrowEvent = 'event: deal\ndata: {"kind":"escrow"}\n\n';
    const count = () => stream.received().split(escrowEvent).length - 1;

    // Opened: the escrow and its two legs in one transaction are one notification (same payload).
    const escrowId = await db.transaction(async (tx) => {
      const [escrow] = await tx
        .insert(schema.escrows)
        .values({ dealId })
        .returning({ id: schema.escrows.id });
      await tx
        .insert(schema.escrowLegs)
        .values([
          placeholderLeg(escrow!.id, { chain: 'ETH', symbol: 'WBTC' }),
          placeholderLeg(escrow!.id, { leg: 'stable', chain: 'ETH', symbol: 'USDC' }),
        ]);
      return escrow!.id;
    });
    await waitUntil(() => count() === 1);

    // A deposit seen, then one block deeper: one event each.
    const [entry] = await db
      .insert(schema.escrowLedgerEntries)
      .values({
        escrowId,
        leg: 'asset',
        chain: 'ETH',
        kind: 'deposit',
        txRef: `0x${'ab'.repeat(32)}`,
        position: 0,
        amount: '50000000',
        confirmations: 0,
        status: 'pending',
      })
      .returning({ id: schema.escrowLedgerEntries.id });
    await waitUntil(() => count() === 2);
    await db
      .update(schema.escrowLedgerEntries)
      .set({ confirmations: 1 })
      .where(eq(schema.escrowLedgerEntries.id, entry!.id));
    await waitUntil(() => count() === 3);

    // Writing the same values again changes nothing: nothing is announced (a message marks the time).
    await db
      .update(schema.escrowLedgerEntries)
      .set({ confirmations: 1 })
      .where(eq(schema.escrowLedgerEntries.id, entry!.id));
    await call('POST', `/api/v1/deals/${dealId}/messages`, seller.token, { body: 'Sent it' });
    await stream.waitFor(messageEvent);
    expect(count()).toBe(3);
    // Another deal's escrow is not this stream's business.
    const other = await newDeal();
    await db.insert(schema.escrows).values({ dealId: other });
    await call('POST', `/api/v1/deals/${dealId}/messages`, seller.token, { body: 'Still there?' });
    await waitUntil(() => stream.received().split(messageEvent).length - 1 === 2);
    expect(count()).toBe(3);
    stream.abort();
  });

  it('lets go of a stream when its client disconnects', async () => {
    const dealId = await newDeal();
    const before = app.dealEvents.subscriberCount();
    const stream = await openStream(dealId, buyer.token);
    await stream.waitFor('retry: 3000');
    expect(app.dealEvents.subscriberCount()).toBe(before + 1);
    stream.abort();
    await waitUntil(() => app.dealEvents.subscriberCount() === before);
  });
});

describe('closing the app', () => {
  it('ends open streams instead of waiting for them', async () => {
    const ownDatabase = await createTestDatabase();
    const own = await buildTestApp({ database: ownDatabase });
    try {
      await own.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(own.app.server.address() as AddressInfo).port}`;
      const trader = await createTestTrader(own.app);
      const counterparty = await createTestTrader(own.app);
      const created = await own.app.inject({
        method: 'POST',
        url: '/api/v1/deals',
        headers: { authorization: `Bearer ${trader.token}` },
        payload: {
          asset_chain: 'ETH',
          asset_symbol: 'WBTC',
          asset_amount: '1000',
          stable_chain: 'ETH',
          stable_symbol: 'USDC',
          stable_amount: '1000000',
          counterparty_id: counterparty.id,
        },
      });
      const response = await fetch(`${url}/api/v1/deals/${created.json().id}/events`, {
        headers: { authorization: `Bearer ${trader.token}` },
      });
      const body = response.text();
      const started = Date.now();
      await own.close();
      expect(await body).toBe('retry: 3000\n\n');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await ownDatabase.close();
    }
  });
});
