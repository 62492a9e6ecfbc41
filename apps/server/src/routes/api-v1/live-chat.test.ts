import type { AddressInfo } from 'node:net';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { listMailbox } from '../../email/read-mailbox.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';
import { openEventStream } from '../../testing/open-event-stream.js';

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
let baseUrl: string;
let staff: TestTrader;
let otherStaff: TestTrader;
let staffAal1: TestTrader;
let trader: TestTrader;
let mediator: TestTrader;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database });
  app = testApp.app;
  // A real server: inject would buffer a stream until it ends.
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  staff = await createTestTrader(app, { roles: ['admin'] });
  otherStaff = await createTestTrader(app, { roles: ['admin'] });
  staffAal1 = await createTestTrader(app, { roles: ['admin'], aal: 'aal1' });
  trader = await createTestTrader(app);
  mediator = await createTestTrader(app, { roles: ['mediator'] });
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

let visitorNumber = 0;
/** Each visitor its own network, so the per-network limit counts only what a test means it to. */
function visitorIp(): string {
  visitorNumber += 1;
  return `198.51.100.${visitorNumber}`;
}

async function openConversation(
  body = 'Hello, is anyone there?',
  options: { email?: string; ip?: string; bearer?: string } = {},
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/chat/conversations',
    remoteAddress: options.ip ?? visitorIp(),
    headers: options.bearer ? { authorization: `Bearer ${options.bearer}` } : {},
    payload: { email: options.email ?? `visitor-${visitorNumber}@example.com`, body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as {
    token: string;
    conversation: { id: string; mode: string; staff_online: boolean };
  };
}

function asVisitor(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) {
  return app.inject({ method, url, headers: { 'x-chat-token': token }, ...(payload ? { payload } : {}) });
}

function asStaff(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  token: string = staff.token,
  payload?: Record<string, unknown>,
) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
}

/** A stream read over real HTTP, as the web app reads it (fetch with headers). */
const openStream = (path: string, headers: Record<string, string>) =>
  openEventStream(`${baseUrl}${path}`, headers);

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const staffOnline = async () =>
  (await app.inject({ method: 'GET', url: '/api/v1/chat/status' })).json().staff_online as boolean;

function event(kind: string, conversationId: string | null): string {
  return `event: chat\ndata: ${JSON.stringify({ kind, conversation_id: conversationId })}\n\n`;
}

describe('live chat while a staff member is online', () => {
  it('carries the visitor’s messages to the console and the answers back, live both ways', async () => {
    expect(await staffOnline()).toBe(false);
    const staffStream = await openStream('/api/v1/staff/chat/events', {
      authorization: `Bearer ${staff.token}`,
    });
    expect(staffStream.response.status).toBe(200);
    expect(staffStream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await staffStream.waitFor('retry: 3000\n\n');
    await waitUntil(staffOnline);

    const opened = await openConversation('I need help with an escrow');
    const { token, conversation } = opened;
    expect(conversation).toMatchObject({ mode: 'live', staff_online: true });
    await staffStream.waitFor(event('conversation', conversation.id));
    await staffStream.waitFor(event('message', conversation.id));

    const visitor = await openStream('/api/v1/chat/conversation/events', { 'x-chat-token': token });
    expect(visitor.response.status).toBe(200);
    await visitor.waitFor('retry: 3000\n\n');

    const listed = await asStaff('GET', '/api/v1/staff/chat/conversations');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toContainEqual(
      expect.objectContaining({
        id: conversation.id,
        last_message: 'I need help with an escrow',
        assigned_to: null,
      }),
    );

    const assigned = await asStaff('POST', `/api/v1/staff/chat/conversations/${conversation.id}/assign`);
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json()).toMatchObject({ assigned_to: staff.id, assigned_email: staff.email });
    await visitor.waitFor(event('conversation', conversation.id));

    const answered = await asStaff(
      'POST',
      `/api/v1/staff/chat/conversations/${conversation.id}/messages`,
      staff.token,
      {
        body: 'Hi! Which deal is it about?',
      },
    );
    expect(answered.statusCode, answered.body).toBe(201);
    await visitor.waitFor(event('message', conversation.id));
    const seen = await asVisitor('GET', '/api/v1/chat/conversation', token);
    expect(seen.statusCode).toBe(200);
    expect(
      seen.json().messages.map((message: { author: string; body: string; emailed: boolean }) => message),
    ).toEqual([
      expect.objectContaining({ author: 'visitor', body: 'I need help with an escrow', emailed: false }),
      expect.objectContaining({ author: 'staff', body: 'Hi! Which deal is it about?', emailed: false }),
    ]);
    // Nothing of the staff member's identity reaches the visitor.
    expect(seen.body).not.toContain(staff.email);
    expect(seen.body).not.toContain(staff.id);

    const written = await asVisitor('POST', '/api/v1/chat/conversation/messages', token, {
      body: 'The one from Monday',
    });
    expect(written.statusCode, written.body).toBe(201);
    expect(written.json().mode).toBe('live');
    // The visitor's first message, the answer, and this one.
    await waitUntil(
      async () => staffStream.received().split(event('message', conversation.id)).length - 1 === 3,
    );

    const closed = await asStaff('POST', `/api/v1/staff/chat/conversations/${conversation.id}/close`);
    expect(closed.statusCode).toBe(200);
    expect(closed.json().status).toBe('closed');
    await visitor.waitFor(event('conversation', conversation.id));
    // The history stays, and the visitor cannot write into a closed conversation.
    const history = await asStaff('GET', `/api/v1/staff/chat/conversations/${conversation.id}`);
    expect(history.json().messages).toHaveLength(3);
    expect(history.json().messages[1]).toMatchObject({ author: 'staff', author_email: staff.email });
    const late = await asVisitor('POST', '/api/v1/chat/conversation/messages', token, {
      body: 'One more thing',
    });
    expect(late.statusCode).toBe(409);
    const closedList = await asStaff('GET', '/api/v1/staff/chat/conversations?status=closed');
    expect(closedList.json().data.map((row: { id: string }) => row.id)).toContain(conversation.id);
    const openList = await asStaff('GET', '/api/v1/staff/chat/conversations');
    expect(openList.json().data.map((row: { id: string }) => row.id)).not.toContain(conversation.id);

    // The console closes: staff are offline at once, and the visitor is told.
    const other = await openConversation('Anyone?');
    const watching = await openStream('/api/v1/chat/conversation/events', { 'x-chat-token': other.token });
    await watching.waitFor('retry: 3000\n\n');
    await staffStream.close();
    await watching.waitFor(event('presence', null));
    await waitUntil(async () => !(await staffOnline()));
    await visitor.close();
    await watching.close();
  });

  it('counts staff offline once their stream stops checking in, on whichever replica it was', async () => {
    await database.db.insert(schema.chatStaffPresence).values({
      id: crypto.randomUUID(),
      userId: otherStaff.id,
      lastSeenAt: new Date(Date.now() - 60_000),
    });
    expect(await staffOnline()).toBe(false);
    await database.db
      .update(schema.chatStaffPresence)
      .set({ lastSeenAt: new Date() })
      .where(eq(schema.chatStaffPresence.userId, otherStaff.id));
    expect(await staffOnline()).toBe(true);
    await database.db
      .delete(schema.chatStaffPresence)
      .where(eq(schema.chatStaffPresence.userId, otherStaff.id));
    expect(await staffOnline()).toBe(false);
  });
});

describe('live chat while no staff member is online', () => {
  it('becomes a ticket whose answer is e-mailed to the visitor', async () => {
    const { token, conversation } = await openConversation('My withdrawal is stuck', {
      email: 'Offline.Visitor@Example.com',
    });
    expect(conversation).toMatchObject({ mode: 'email', staff_online: false });
    const seen = await asVisitor('GET', '/api/v1/chat/conversation', token);
    expect(seen.json()).toMatchObject({ email: 'offline.visitor@example.com', mode: 'email' });

    const answered = await asStaff(
      'POST',
      `/api/v1/staff/chat/conversations/${conversation.id}/messages`,
      staff.token,
      {
        body: 'We have released it.\n\nSorry for the wait.',
      },
    );
    expect(answered.statusCode, answered.body).toBe(201);
    // Whoever answers an unassigned conversation takes it.
    expect(answered.json()).toMatchObject({ assigned_to: staff.id });
    const mails = (await listMailbox(testApp.mailboxDir)).filter((mail) =>
      mail.to.includes('offline.visitor@example.com'),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Re: your live chat with Covenant support');
    expect(mails[0]!.text).toContain('We have released it.');
    expect(mails[0]!.text).toContain('My withdrawal is stuck');
    const after = await asVisitor('GET', '/api/v1/chat/conversation', token);
    expect(after.json().messages.at(-1)).toMatchObject({ author: 'staff', emailed: true });
  });

  it('turns a live conversation into a ticket when the visitor writes after staff left', async () => {
    const presence = crypto.randomUUID();
    await database.db
      .insert(schema.chatStaffPresence)
      .values({ id: presence, userId: staff.id, lastSeenAt: new Date() });
    const { token, conversation } = await openConversation('Quick question');
    expect(conversation.mode).toBe('live');
    await database.db.delete(schema.chatStaffPresence).where(eq(schema.chatStaffPresence.id, presence));
    const written = await asVisitor('POST', '/api/v1/chat/conversation/messages', token, { body: 'Hello?' });
    expect(written.json()).toMatchObject({ mode: 'email', staff_online: false });
  });
});

describe('who reaches what', () => {
  it('lets a visitor reach only its own conversation, by its token', async () => {
    const mine = await openConversation('Mine');
    const theirs = await openConversation('Theirs, private');
    const read = await asVisitor('GET', '/api/v1/chat/conversation', mine.token);
    expect(read.json().id).toBe(mine.conversation.id);
    expect(read.body).not.toContain('Theirs, private');
    const madeUp = 'A'.repeat(43);
    expect((await asVisitor('GET', '/api/v1/chat/conversation', madeUp)).statusCode).toBe(404);
    expect(
      (await asVisitor('POST', '/api/v1/chat/conversation/messages', madeUp, { body: 'x' })).statusCode,
    ).toBe(404);
    const stream = await fetch(`${baseUrl}/api/v1/chat/conversation/events`, {
      headers: { 'x-chat-token': madeUp },
    });
    expect(stream.status).toBe(404);
    expect((await asVisitor('GET', '/api/v1/chat/conversation', 'short')).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/v1/chat/conversation' })).statusCode).toBe(400);
    // A signed-in user's Bearer token opens no one's conversation either.
    const bearer = await app.inject({
      method: 'GET',
      url: '/api/v1/chat/conversation',
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect(bearer.statusCode).toBe(400);
    expect(theirs.token).not.toBe(mine.token);
  });

  it('links a signed-in user’s conversation to the account, and refuses a bad Bearer token', async () => {
    const opened = await openConversation('From my account', { bearer: trader.token, email: trader.email });
    const [row] = await database.db
      .select()
      .from(schema.chatConversations)
      .where(eq(schema.chatConversations.id, opened.conversation.id));
    expect(row!.userId).toBe(trader.id);
    expect(row!.tokenHash).not.toContain(opened.token);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/v1/chat/conversations',
      headers: { authorization: 'Bearer not-a-token' },
      payload: { email: 'a@example.com', body: 'x' },
    });
    expect(refused.statusCode).toBe(401);
  });

  it('keeps the console to support staff with a second factor', async () => {
    const { conversation } = await openConversation('Staff only');
    const urls: Array<['GET' | 'POST', string]> = [
      ['GET', '/api/v1/staff/chat/conversations'],
      ['GET', `/api/v1/staff/chat/conversations/${conversation.id}`],
      ['POST', `/api/v1/staff/chat/conversations/${conversation.id}/assign`],
      ['POST', `/api/v1/staff/chat/conversations/${conversation.id}/close`],
      ['GET', '/api/v1/staff/chat/canned-replies'],
      ['GET', '/api/v1/staff/chat/events'],
    ];
    for (const [method, url] of urls) {
      expect((await app.inject({ method, url })).statusCode, url).toBe(401);
      for (const caller of [trader, mediator, staffAal1]) {
        const refused = await asStaff(method, url, caller.token);
        expect(refused.statusCode, `${url} ${refused.body}`).toBe(403);
        expect(refused.body).not.toContain('Staff only');
      }
    }
    const answered = await asStaff(
      'POST',
      `/api/v1/staff/chat/conversations/${conversation.id}/messages`,
      trader.token,
      {
        body: 'not staff',
      },
    );
    expect(answered.statusCode).toBe(403);
    expect(await staffOnline()).toBe(false);
  });
});

describe('canned replies', () => {
  it('are shared by the team: added, listed by title, removed', async () => {
    const created = await asStaff('POST', '/api/v1/staff/chat/canned-replies', staff.token, {
      title: 'Greeting',
      body: 'Hello, thanks for reaching out. How can we help?',
    });
    expect(created.statusCode, created.body).toBe(201);
    await asStaff('POST', '/api/v1/staff/chat/canned-replies', otherStaff.token, {
      title: 'Apology',
      body: 'Sorry.',
    });
    const listed = await asStaff('GET', '/api/v1/staff/chat/canned-replies', otherStaff.token);
    expect(listed.json().data.map((reply: { title: string }) => reply.title)).toEqual([
      'Apology',
      'Greeting',
    ]);
    const removed = await asStaff('DELETE', `/api/v1/staff/chat/canned-replies/${created.json().id}`);
    expect(removed.statusCode).toBe(204);
    expect(
      (await asStaff('DELETE', `/api/v1/staff/chat/canned-replies/${created.json().id}`)).statusCode,
    ).toBe(404);
    const invalid = await asStaff('POST', '/api/v1/staff/chat/canned-replies', staff.token, {
      title: '',
      body: 'x',
    });
    expect(invalid.statusCode).toBe(400);
  });
});

describe('limits and input', () => {
  it('refuses invalid messages with 400, never a 500', async () => {
    for (const payload of [
      {},
      { email: 'not-an-address', body: 'x' },
      { email: 'a@example.com', body: '' },
      { email: 'a@example.com', body: 'x'.repeat(4001) },
    ]) {
      const response = await app.inject({ method: 'POST', url: '/api/v1/chat/conversations', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
    const { token } = await openConversation('Valid');
    const empty = await asVisitor('POST', '/api/v1/chat/conversation/messages', token, { body: '   ' });
    expect(empty.statusCode).toBe(400);
  });

  it('limits new conversations per address and per network (an IPv6 /64 is one), and messages per conversation', async () => {
    const email = 'flood@example.com';
    for (let index = 0; index < 5; index += 1) await openConversation(`Flood ${index}`, { email });
    const sixth = await app.inject({
      method: 'POST',
      url: '/api/v1/chat/conversations',
      remoteAddress: visitorIp(),
      payload: { email, body: 'Flood 6' },
    });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error.code).toBe('RATE_LIMITED');
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);

    const ip = visitorIp();
    for (let index = 0; index < 10; index += 1)
      await openConversation('Same network', { ip, email: `n${index}@example.com` });
    const eleventh = await app.inject({
      method: 'POST',
      url: '/api/v1/chat/conversations',
      remoteAddress: ip,
      payload: { email: 'n11@example.com', body: 'Same network' },
    });
    expect(eleventh.statusCode).toBe(429);

    // An IPv6 subscriber holds a whole /64: its addresses share one budget.
    for (let index = 1; index <= 10; index += 1)
      await openConversation('Same /64', { ip: `2001:db8:0:7::${index}`, email: `v6-${index}@example.com` });
    const fromTheSame64 = await app.inject({
      method: 'POST',
      url: '/api/v1/chat/conversations',
      remoteAddress: '2001:db8:0:7:ffff::1',
      payload: { email: 'v6-11@example.com', body: 'Same /64' },
    });
    expect(fromTheSame64.statusCode).toBe(429);

    const { token } = await openConversation('Chatty');
    for (let index = 0; index < 30; index += 1) {
      const written = await asVisitor('POST', '/api/v1/chat/conversation/messages', token, {
        body: `Line ${index}`,
      });
      expect(written.statusCode).toBe(201);
    }
    const over = await asVisitor('POST', '/api/v1/chat/conversation/messages', token, { body: 'Line 31' });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
  });
});
