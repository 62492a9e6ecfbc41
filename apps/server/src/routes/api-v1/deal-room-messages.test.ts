import { type Database, schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';
import { type DealParties, startDealParties } from '../../testing/start-deal-parties.js';

let parties: DealParties;
let database: Database;
let app: FastifyInstance;
let buyer: TestTrader;
let seller: TestTrader;
let outsider: TestTrader;
let mediator: TestTrader;

beforeAll(async () => {
  parties = await startDealParties();
  ({ database, app, buyer, seller, outsider } = parties);
  mediator = await createTestTrader(app, { roles: ['mediator'] });
});
afterAll(async () => {
  await parties?.close();
});

const call: DealParties['call'] = (...args) => parties.call(...args);
const newDeal = () => parties.newDeal();
const setStatus: DealParties['setStatus'] = (...args) => parties.setStatus(...args);

async function openDispute(dealId: string, status: schema.DisputeStatus = 'open'): Promise<void> {
  await database.db.insert(schema.dealDisputes).values({
    dealId,
    openedBy: buyer.id,
    reason: 'The seller stopped answering',
    statusBefore: 'terms_agreed',
    status,
  });
}

const messageNotificationsOf = (userId: string, dealId: string) =>
  database.db
    .select()
    .from(schema.notifications)
    .where(
      and(
        eq(schema.notifications.userId, userId),
        eq(schema.notifications.dealId, dealId),
        eq(schema.notifications.kind, 'message'),
      ),
    );

describe('deal room messages', () => {
  it('lets both parties write and read, trimmed, with the author’s role and name', async () => {
    const dealId = await newDeal();
    const first = await call('POST', `/api/v1/deals/${dealId}/messages`, buyer.token, {
      body: '  Hello, shall we meet on Monday?  ',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      author_id: buyer.id,
      author_role: 'buyer',
      author_name: buyer.username,
      body: 'Hello, shall we meet on Monday?',
    });
    const reply = await call('POST', `/api/v1/deals/${dealId}/messages`, seller.token, {
      body: 'Monday works.',
    });
    expect(reply.statusCode, reply.body).toBe(201);

    for (const reader of [buyer, seller]) {
      const page = await call('GET', `/api/v1/deals/${dealId}/messages`, reader.token);
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json()).toMatchObject({ has_more: false, next_cursor: null });
      expect(
        page.json().data.map((message: { body: string; author_role: string }) => message.author_role),
      ).toEqual(['buyer', 'seller']);
    }
  });

  it('notifies the other party of a message, not its author', async () => {
    const dealId = await newDeal();
    await call('POST', `/api/v1/deals/${dealId}/messages`, buyer.token, { body: 'Are the addresses right?' });
    const toSeller = await messageNotificationsOf(seller.id, dealId);
    expect(toSeller).toHaveLength(1);
    expect(toSeller[0]).toMatchObject({
      title: 'New message',
      body: `${buyer.username}: Are the addresses right?`,
    });
    expect(await messageNotificationsOf(buyer.id, dealId)).toEqual([]);
  });

  it('refuses an empty, a blank and an overlong message', async () => {
    const dealId = await newDeal();
    for (const body of ['', '   \n ', 'x'.repeat(4001)]) {
      const response = await call('POST', `/api/v1/deals/${dealId}/messages`, buyer.token, { body });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
    const longest = await call('POST', `/api/v1/deals/${dealId}/messages`, buyer.token, {
      body: 'x'.repeat(4000),
    });
    expect(longest.statusCode).toBe(201);
  });

  it('answers 404 to a trader who is not a party, reading or writing', async () => {
    const dealId = await newDeal();
    const read = await call('GET', `/api/v1/deals/${dealId}/messages`, outsider.token);
    expect(read.statusCode).toBe(404);
    expect(read.json().error.code).toBe('NOT_FOUND');
    const write = await call('POST', `/api/v1/deals/${dealId}/messages`, outsider.token, { body: 'Hi' });
    expect(write.statusCode).toBe(404);
    const unknown = await call('GET', `/api/v1/deals/${crypto.randomUUID()}/messages`, buyer.token);
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses new messages on a cancelled or completed deal, and still shows the old ones', async () => {
    for (const status of ['cancelled', 'completed'] as const) {
      const dealId = await newDeal();
      await call('POST', `/api/v1/deals/${dealId}/messages`, buyer.token, { body: 'Before' });
      await setStatus(dealId, status);
      const write = await call('POST', `/api/v1/deals/${dealId}/messages`, seller.token, { body: 'After' });
      expect(write.statusCode, write.body).toBe(409);
      expect(write.json().error.code).toBe('DEAL_NOT_ACTIVE');
      const read = await call('GET', `/api/v1/deals/${dealId}/messages`, seller.token);
      expect(read.json().data.map((message: { body: string }) => message.body)).toEqual(['Before']);
    }
  });

  it('lets a mediator in once the deal has a dispute, open or decided; not before, not without aal2', async () => {
    const dealId = await newDeal();
    await call('POST', `/api/v1/deals/${dealId}/messages`, buyer.token, { body: 'Please help.' });
    const before = await call('GET', `/api/v1/deals/${dealId}/messages`, mediator.token);
    expect(before.statusCode).toBe(404);

    await setStatus(dealId, 'disputed');
    await openDispute(dealId);
    const read = await call('GET', `/api/v1/deals/${dealId}/messages`, mediator.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data).toHaveLength(1);
    const written = await call('POST', `/api/v1/deals/${dealId}/messages`, mediator.token, {
      body: 'I am looking into it.',
    });
    expect(written.statusCode, written.body).toBe(201);
    expect(written.json()).toMatchObject({ author_role: 'mediator', author_name: mediator.username });
    // Both parties hear from the mediator.
    for (const party of [buyer, seller]) {
      const [notification] = await messageNotificationsOf(party.id, dealId).then((rows) =>
        rows.filter((row) => row.title === 'New message from the mediator'),
      );
      expect(notification?.body).toBe(`${mediator.username}: I am looking into it.`);
    }

    const withoutSecondFactor = await createTestTrader(app, { roles: ['mediator'], aal: 'aal1' });
    const refused = await call('GET', `/api/v1/deals/${dealId}/messages`, withoutSecondFactor.token);
    expect(refused.statusCode).toBe(403);
    const compliance = await createTestTrader(app, { roles: ['compliance'] });
    const other = await call('GET', `/api/v1/deals/${dealId}/messages`, compliance.token);
    expect(other.statusCode).toBe(404);
  });

  it('notifies the mediator who took the case when a party writes', async () => {
    const dealId = await newDeal();
    await setStatus(dealId, 'disputed');
    await database.db.insert(schema.dealDisputes).values({
      dealId,
      openedBy: buyer.id,
      reason: 'No deposit',
      statusBefore: 'terms_agreed',
      mediatorId: mediator.id,
    });
    await call('POST', `/api/v1/deals/${dealId}/messages`, seller.token, { body: 'I did deposit.' });
    expect((await messageNotificationsOf(mediator.id, dealId)).map((row) => row.body)).toEqual([
      `${seller.username}: I did deposit.`,
    ]);
    expect(await messageNotificationsOf(buyer.id, dealId)).toHaveLength(1);
    expect(await messageNotificationsOf(seller.id, dealId)).toEqual([]);
  });

  it('keeps the mediator able to explain a decision on the closed deal', async () => {
    const dealId = await newDeal();
    await setStatus(dealId, 'completed');
    await openDispute(dealId, 'decided');
    const written = await call('POST', `/api/v1/deals/${dealId}/messages`, mediator.token, {
      body: 'Released per the terms.',
    });
    expect(written.statusCode, written.body).toBe(201);
    const party = await call('POST', `/api/v1/deals/${dealId}/messages`, buyer.token, { body: 'Thanks' });
    expect(party.statusCode).toBe(409);
  });

  it('pages oldest first, 50 at a time, and refuses a cursor from elsewhere', async () => {
    const dealId = await newDeal();
    const start = Date.parse('2030-01-01T00:00:00Z');
    await database.db.insert(schema.dealMessages).values(
      Array.from({ length: 51 }, (_, i) => ({
        dealId,
        authorId: i % 2 === 0 ? buyer.id : seller.id,
        body: `message ${i}`,
        createdAt: new Date(start + i * 1000),
      })),
    );
    const first = await call('GET', `/api/v1/deals/${dealId}/messages`, seller.token);
    const firstPage = first.json();
    expect(firstPage.data).toHaveLength(50);
    expect(firstPage.data[0].body).toBe('message 0');
    expect(firstPage.data[49].body).toBe('message 49');
    expect(firstPage).toMatchObject({ has_more: true, next_cursor: firstPage.data[49].id });

    const second = await call(
      'GET',
      `/api/v1/deals/${dealId}/messages?cursor=${firstPage.next_cursor}`,
      seller.token,
    );
    expect(second.json()).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.json().data.map((message: { body: string }) => message.body)).toEqual(['message 50']);

    const elsewhere = await newDeal();
    const wrong = await call(
      'GET',
      `/api/v1/deals/${elsewhere}/messages?cursor=${firstPage.next_cursor}`,
      seller.token,
    );
    expect(wrong.statusCode).toBe(400);
  });
});
