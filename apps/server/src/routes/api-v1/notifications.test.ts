import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createSmtpMailer } from '../../email/create-smtp-mailer.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../email/start-test-smtp-server.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';

let database: Database;
let smtp: TestSmtpServer;
let testApp: TestApp;
let app: FastifyInstance;
let buyer: TestTrader;
let seller: TestTrader;
let outsider: TestTrader;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startTestSmtpServer();
  testApp = await buildTestApp({
    database,
    mailer: createSmtpMailer(smtp.url, 'Covenant <no-reply@covenant.test>'),
    env: { PUBLIC_URL: 'https://covenant.example' },
  });
  app = testApp.app;
  await app.ready();
  buyer = await createTestTrader(app);
  seller = await createTestTrader(app);
  outsider = await createTestTrader(app);
});
afterAll(async () => {
  await testApp?.close();
  await smtp?.close();
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

interface NotificationView {
  id: string;
  deal_id: string | null;
  kind: string;
  title: string;
  body: string;
  read_at: string | null;
}

async function notificationsOf(trader: TestTrader, query = '') {
  const response = await call('GET', `/api/v1/notifications${query}`, trader.token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    data: NotificationView[];
    has_more: boolean;
    next_cursor: string | null;
    unread_count: number;
  };
}

describe('notifications of deal events', () => {
  it('tell the counterparty, never the one who acted, and e-mail the transition once', async () => {
    const dealId = await newDeal();
    const cancelled = await call('POST', `/api/v1/deals/${dealId}/cancel`, seller.token, {
      reason: 'Prices moved too much',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    const forBuyer = (await notificationsOf(buyer)).data.filter(
      (notification) => notification.deal_id === dealId,
    );
    expect(forBuyer).toEqual([
      expect.objectContaining({
        kind: 'cancelled',
        title: 'Deal cancelled',
        body: 'The deal was cancelled. Reason: Prices moved too much',
        read_at: null,
      }),
    ]);
    const forSeller = (await notificationsOf(seller)).data.filter(
      (notification) => notification.deal_id === dealId,
    );
    // The seller did not create the deal but was told of it; it cancelled itself, so nothing about that.
    expect(forSeller.map((notification) => notification.kind)).toEqual(['created']);

    const email = await smtp.waitForMessage(
      (message) => message.to.includes(buyer.email) && message.subject === 'Deal cancelled',
    );
    expect(email.text).toContain('Reason: Prices moved too much');
    expect(email.text).toContain(`https://covenant.example/trading/deals/${dealId}`);
    // Another pass (the sweep, another event) must not send it again.
    await call('POST', `/api/v1/deals/${await newDeal()}/cancel`, buyer.token, { reason: 'Another one' });
    await smtp.waitForMessage(
      (message) => message.subject === 'Deal cancelled' && message.to.includes(seller.email),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const toBuyer = smtp.messages.filter(
      (message) =>
        message.to.includes(buyer.email) &&
        message.text.includes(dealId) &&
        message.subject === 'Deal cancelled',
    );
    expect(toBuyer).toHaveLength(1);
    expect(
      smtp.messages.filter((message) => message.to.includes(seller.email) && message.text.includes(dealId)),
    ).toHaveLength(1); // the "New deal proposed" e-mail, nothing for its own cancellation
  });
});

describe('GET /notifications and marking them read', () => {
  it('shows each user only their own, newest first, with the unread count', async () => {
    const reader = await createTestTrader(app);
    const writer = await createTestTrader(app);
    const created = await call('POST', '/api/v1/deals', writer.token, {
      asset_chain: 'ETH',
      asset_symbol: 'WBTC',
      asset_amount: '1000',
      stable_chain: 'ETH',
      stable_symbol: 'USDC',
      stable_amount: '1000000',
      counterparty_id: reader.id,
    });
    const dealId = created.json().id;
    await call('POST', `/api/v1/deals/${dealId}/messages`, writer.token, { body: 'First' });
    await call('POST', `/api/v1/deals/${dealId}/messages`, writer.token, { body: 'Second' });

    const page = await notificationsOf(reader);
    expect(page.unread_count).toBe(3);
    expect(page.data.map((notification) => notification.body)).toEqual([
      `${writer.username}: Second`,
      `${writer.username}: First`,
      'A buyer opened a deal with you. Attach your Customer Information Sheet to begin.',
    ]);
    expect((await notificationsOf(writer)).data).toEqual([]);
    expect(
      (await notificationsOf(outsider)).data.some((notification) => notification.deal_id === dealId),
    ).toBe(false);

    const newest = page.data[0]!;
    const notMine = await call('POST', `/api/v1/notifications/${newest.id}/read`, writer.token);
    expect(notMine.statusCode).toBe(404);
    const read = await call('POST', `/api/v1/notifications/${newest.id}/read`, reader.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().read_at).not.toBeNull();

    const unread = await notificationsOf(reader, '?unread=true');
    expect(unread.unread_count).toBe(2);
    expect(unread.data.map((notification) => notification.id)).not.toContain(newest.id);

    const all = await call('POST', '/api/v1/notifications/read-all', reader.token);
    expect(all.json()).toEqual({ marked: 2 });
    expect((await notificationsOf(reader, '?unread=true')).data).toEqual([]);
    expect((await notificationsOf(reader)).unread_count).toBe(0);
    // The other users' notifications stay unread.
    expect((await notificationsOf(seller)).unread_count).toBeGreaterThan(0);
  });

  it('pages with a cursor, and refuses a cursor that is not the caller’s', async () => {
    const reader = await createTestTrader(app);
    const writer = await createTestTrader(app);
    const created = await call('POST', '/api/v1/deals', writer.token, {
      asset_chain: 'ETH',
      asset_symbol: 'WBTC',
      asset_amount: '1000',
      stable_chain: 'ETH',
      stable_symbol: 'USDC',
      stable_amount: '1000000',
      counterparty_id: reader.id,
    });
    const dealId = created.json().id;
    for (let i = 0; i < 20; i += 1) {
      await call('POST', `/api/v1/deals/${dealId}/messages`, writer.token, { body: `m${i}` });
    }
    const first = await notificationsOf(reader);
    expect(first.data).toHaveLength(20);
    expect(first.has_more).toBe(true);
    const second = await notificationsOf(reader, `?cursor=${first.next_cursor}`);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.data.map((notification) => notification.kind)).toEqual(['created']);
    const foreign = await call('GET', `/api/v1/notifications?cursor=${first.next_cursor}`, writer.token);
    expect(foreign.statusCode).toBe(400);
  });
});
