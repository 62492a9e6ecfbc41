import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword, seedDemoData } from '../../seed/seed-demo-data.js';
import { signInDemoStaff } from '../../testing/sign-in-demo-staff.js';
import { type AuthTestServer, startAuthTestServer } from '../auth-v1/start-auth-test-server.js';

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer();
  await seedDemoData(server.database.db, server.now);
});
afterAll(() => server?.close());

const contact = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0958',
  subject: 'escrow',
  priority: 'high',
  message: 'How many confirmations does a Bitcoin deposit need before the deal is funded?',
  consent: true,
};

const ticket = {
  email: 'grace@example.com',
  subject: 'Wallet page keeps loading',
  category: 'technical_issue',
  description: 'After connecting my wallet the balance spinner never stops on the wallet page.',
};

function unique(email: string) {
  return email.replace('@', `.${Math.random().toString(36).slice(2, 8)}@`);
}

/** Each test that counts submissions starts in a fresh rate-limit window (they are an hour long). */
function freshWindow() {
  server.advanceClock(3601);
}

async function send(path: string, body: unknown, token?: string, method = 'POST') {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${server.origin}/api/v1${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields it expects and asserts on them
  const json: any = await response.json();
  return { status: response.status, headers: response.headers, body: json };
}

async function tokenOf(email: string): Promise<string> {
  const { data, error } = await server.createClient().signInWithPassword({ email, password: demoPassword });
  expect(error).toBeNull();
  return data.session!.access_token;
}

async function storedByReference(reference: string) {
  const [row] = await server.database.db
    .select()
    .from(schema.supportMessages)
    .where(eq(schema.supportMessages.reference, reference));
  return row;
}

describe('POST /api/v1/support/contact', () => {
  it('stores the message under a CNT reference and mails the sender the response target', async () => {
    freshWindow();
    const email = unique(contact.email);
    const sent = await send('/support/contact', { ...contact, email: email.toUpperCase() });
    expect(sent.status).toBe(201);
    const year = server.now().getUTCFullYear();
    expect(sent.body).toEqual({
      reference: expect.stringMatching(new RegExp(`^CNT-${year}-\\d{6}$`)),
      priority: 'high',
      response_target_hours: 2,
      confirmation_sent: true,
    });
    const row = await storedByReference(sent.body.reference);
    expect(row).toMatchObject({
      kind: 'contact',
      status: 'open',
      email,
      firstName: 'Ada',
      topic: 'escrow',
      phone: '+44 20 7946 0958',
      userId: null,
    });

    const confirmation = await server.takeEmail(email, sent.body.reference);
    expect(confirmation.subject).toBe(`[${sent.body.reference}] We received your message`);
    for (const part of [confirmation.text, confirmation.html]) {
      expect(part).toContain(sent.body.reference);
      expect(part).toContain('We aim to answer under 2 hours');
      expect(part).toContain('Topic: Escrow');
      // Signed out, anyone could have typed this address: the sender's words are not mailed to it.
      expect(part).not.toContain('Ada');
      expect(part).not.toContain(contact.message);
      expect(part).toContain('This e-mail does not repeat what the form said');
    }
  });

  it('refuses bad input field by field, storing and sending nothing', async () => {
    freshWindow();
    const before = await server.database.db.$count(schema.supportMessages);
    const sent = await send('/support/contact', {
      ...contact,
      email: 'nope',
      subject: 'lunch',
      message: 'hi',
      consent: false,
    });
    expect(sent.status).toBe(400);
    expect(sent.body.error.code).toBe('VALIDATION_FAILED');
    const fields = sent.body.error.details.issues.map((issue: { path: string }) => issue.path).sort();
    expect(fields).toEqual(['/consent', '/email', '/message', '/subject']);
    expect(sent.body.error.details.issues.find((i: { path: string }) => i.path === '/message').message).toBe(
      'Tell us a little more (at least 20 characters)',
    );
    expect(await server.database.db.$count(schema.supportMessages)).toBe(before);
  });

  it('limits messages per address, then per network, with 429 in the API error shape', async () => {
    freshWindow();
    const email = unique('flood@example.com');
    for (let i = 0; i < 5; i++)
      expect((await send('/support/contact', { ...contact, email })).status).toBe(201);
    const refused = await send('/support/contact', { ...contact, email });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body.error).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(
        /^Too many messages from this email address\. Please try again in \d+ minutes?\.$/,
      ),
      details: { retry_after_seconds: expect.any(Number) },
      timestamp: expect.any(String),
    });

    // 6 counted so far from this address; 4 more addresses fill the network's 10.
    for (let i = 0; i < 4; i++) {
      expect((await send('/support/tickets', { ...ticket, email: unique(ticket.email) })).status).toBe(201);
    }
    const network = await send('/support/tickets', { ...ticket, email: unique(ticket.email) });
    expect(network.status).toBe(429);
    expect(network.body.error.message).toMatch(/^Too many messages from this network/);
  });
});

describe('POST /api/v1/support/tickets', () => {
  it('numbers tickets in sequence and links a signed-in sender', async () => {
    freshWindow();
    const token = await tokenOf('buyer@demo.covenant.test');
    const first = await send('/support/tickets', { ...ticket, email: 'buyer@demo.covenant.test' }, token);
    const secondEmail = unique(ticket.email);
    const second = await send('/support/tickets', { ...ticket, email: secondEmail });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ priority: 'normal', response_target_hours: 4 });
    const numberOf = (reference: string) => Number(reference.split('-')[2]);
    expect(first.body.reference).toMatch(/^TKT-\d{4}-\d{6}$/);
    expect(numberOf(second.body.reference)).toBe(numberOf(first.body.reference) + 1);

    const [buyer] = await server.database.db
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(eq(schema.users.email, 'buyer@demo.covenant.test'));
    expect((await storedByReference(first.body.reference))?.userId).toBe(buyer!.id);
    expect((await storedByReference(second.body.reference))?.userId).toBeNull();

    const confirmation = await server.takeEmail('buyer@demo.covenant.test', first.body.reference);
    expect(confirmation.text).toContain('We aim to answer under 4 hours');
    expect(confirmation.text).toContain('Subject: Wallet page keeps loading');
    expect(confirmation.text).toContain(`What you wrote: ${ticket.description}`);
    expect(confirmation.text).toContain('Topic: Technical Issue');
    const anonymous = await server.takeEmail(secondEmail, second.body.reference);
    expect(anonymous.text).not.toContain('Wallet page keeps loading');
    expect(anonymous.text).not.toContain(ticket.description);
  });

  it('repeats a signed-in sender’s words only to their own account’s address', async () => {
    freshWindow();
    const token = await tokenOf('buyer@demo.covenant.test');
    const own = await send('/support/contact', { ...contact, email: 'Buyer@demo.covenant.test' }, token);
    const victim = unique('victim@example.com');
    const other = await send('/support/contact', { ...contact, email: victim }, token);
    expect(own.status).toBe(201);
    expect(other.status).toBe(201);
    const toOwn = await server.takeEmail('buyer@demo.covenant.test', own.body.reference);
    expect(toOwn.text).toContain('Hello Ada');
    expect(toOwn.text).toContain(`What you wrote: ${contact.message}`);
    const toOther = await server.takeEmail(victim, other.body.reference);
    expect(toOther.text).not.toContain(contact.message);
    expect(toOther.text).not.toContain('Ada');
  });

  it('refuses an invalid token with 401 instead of filing the ticket anonymously', async () => {
    const sent = await send('/support/tickets', ticket, 'not-a-token');
    expect(sent.status).toBe(401);
    expect(sent.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('/api/v1/staff/support', () => {
  it('is for admins only: 401 without a valid token, 403 for a trader, on every route', async () => {
    freshWindow();
    const sent = await send('/support/contact', { ...contact, email: unique(contact.email) });
    const id = (await storedByReference(sent.body.reference))!.id;
    const buyer = await tokenOf('buyer@demo.covenant.test');
    const mediator = await signInDemoStaff(server, 'mediator@demo.covenant.test');
    const admin = await signInDemoStaff(server, 'admin@demo.covenant.test');
    const routes = [
      { method: 'GET', path: '/staff/support/messages', body: undefined, ok: 200 },
      { method: 'GET', path: `/staff/support/messages/${id}`, body: undefined, ok: 200 },
      { method: 'POST', path: `/staff/support/messages/${id}/status`, body: { status: 'resolved' }, ok: 200 },
      { method: 'POST', path: `/staff/support/messages/${id}/replies`, body: { body: 'Hello' }, ok: 201 },
    ];
    for (const route of routes) {
      const anonymous = await send(route.path, route.body, undefined, route.method);
      expect(anonymous.status, `${route.method} ${route.path}`).toBe(401);
      expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
      expect((await send(route.path, route.body, 'forged', route.method)).status).toBe(401);
      for (const token of [buyer, mediator]) {
        const refused = await send(route.path, route.body, token, route.method);
        expect(refused.status, `${route.method} ${route.path}`).toBe(403);
        expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: null });
      }
      expect((await send(route.path, route.body, admin, route.method)).status).toBe(route.ok);
    }
  });

  it('asks an admin signed in with a password only (aal1) for a second factor', async () => {
    freshWindow();
    const aal1 = await signInDemoStaff(server, 'admin@demo.covenant.test', { aal1Only: true });
    const refused = await send('/staff/support/messages', undefined, aal1, 'GET');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: { required_aal: 'aal2' } });
  });

  it('lists with filters and cursor pages, reads, sets the status and replies by e-mail', async () => {
    freshWindow();
    const admin = await signInDemoStaff(server, 'admin@demo.covenant.test');
    const email = unique('inbox@example.com');
    const a = await send('/support/contact', { ...contact, email, priority: 'urgent' });
    const b = await send('/support/tickets', { ...ticket, email });
    const c = await send('/support/contact', { ...contact, email, subject: 'partnership' });
    await server.takeEmail(email, a.body.reference);

    const pageOne = await send('/staff/support/messages?limit=2', undefined, admin, 'GET');
    expect(pageOne.status).toBe(200);
    expect(pageOne.body.has_more).toBe(true);
    expect(pageOne.body.data.map((m: { reference: string }) => m.reference)).toEqual([
      c.body.reference,
      b.body.reference,
    ]);
    const pageTwo = await send(
      `/staff/support/messages?limit=2&starting_after=${pageOne.body.data[1].id}`,
      undefined,
      admin,
      'GET',
    );
    expect(pageTwo.body.data[0].reference).toBe(a.body.reference);

    const tickets = await send('/staff/support/messages?kind=ticket&limit=100', undefined, admin, 'GET');
    expect(tickets.body.data.every((m: { kind: string }) => m.kind === 'ticket')).toBe(true);
    expect(tickets.body.data[0]).toMatchObject({ reference: b.body.reference, title: ticket.subject });

    const id = pageOne.body.data[0].id as string;
    const read = await send(`/staff/support/messages/${id}`, undefined, admin, 'GET');
    expect(read.body).toMatchObject({
      reference: c.body.reference,
      kind: 'contact',
      status: 'open',
      name: 'Ada Lovelace',
      title: 'Partnership',
      body: contact.message,
      replies: [],
    });

    const replyText = 'Hello Ada,\n\nTwo confirmations on Bitcoin; we will call you tomorrow.';
    const replied = await send(`/staff/support/messages/${id}/replies`, { body: replyText }, admin);
    expect(replied.status).toBe(201);
    expect(replied.body.status).toBe('in_progress');
    expect(replied.body.replies).toEqual([
      {
        id: expect.any(String),
        author_email: 'admin@demo.covenant.test',
        body: replyText,
        created_at: expect.any(String),
      },
    ]);
    const mailed = await server.takeEmail(email, `[${c.body.reference}] Re: Partnership`);
    expect(mailed.text).toContain('Two confirmations on Bitcoin; we will call you tomorrow.');
    expect(mailed.html).toContain('Two confirmations on Bitcoin; we will call you tomorrow.');

    const resolved = await send(`/staff/support/messages/${id}/status`, { status: 'resolved' }, admin);
    expect(resolved.body.status).toBe('resolved');
    const open = await send('/staff/support/messages?status=open&limit=100', undefined, admin, 'GET');
    expect(open.body.data.some((m: { id: string }) => m.id === id)).toBe(false);
    const done = await send('/staff/support/messages?status=resolved&limit=100', undefined, admin, 'GET');
    expect(done.body.data.some((m: { id: string }) => m.id === id)).toBe(true);
  });

  it('answers unknown messages with 404 and bad input with 400, in the API error shape', async () => {
    const admin = await signInDemoStaff(server, 'admin@demo.covenant.test');
    const missing = await send(
      '/staff/support/messages/00000000-0000-4000-8000-000000000000',
      undefined,
      admin,
      'GET',
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const status = await send(
      '/staff/support/messages/00000000-0000-4000-8000-000000000000/status',
      { status: 'done' },
      admin,
    );
    expect(status.status).toBe(400);
    expect(status.body.error.code).toBe('VALIDATION_FAILED');
    const limit = await send('/staff/support/messages?limit=1000', undefined, admin, 'GET');
    expect(limit.status).toBe(400);
  });
});
