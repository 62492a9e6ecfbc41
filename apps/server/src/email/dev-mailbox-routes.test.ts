import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKeyToken } from '../api/api-key-token.js';
import { buildTestApp, type TestApp } from '../build-test-app.js';
import { createTestTrader, type TestTrader } from '../testing/create-test-trader.js';
import { createMailboxMailer } from './create-mailbox-mailer.js';
import type { Mailer } from './mailer.js';

let database: Database;
let testApp: TestApp;
let mailer: Mailer;
let time = new Date('2030-02-03T10:00:00Z').getTime();
const clock = () => new Date(time);
/** The id of the first message sent. */
let firstId = '';
/** A built web app of one page, so browser navigations the server does not answer get the SPA. */
const webDistDir = mkdtempSync(join(tmpdir(), 'covenant-web-'));
writeFileSync(join(webDistDir, 'index.html'), '<!doctype html><title>Covenant</title><div id="root"></div>');

const link =
  'http://localhost:3000/auth/v1/verify?token=abc123&type=signup&redirect_to=http://localhost:3000/';

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database, clock, config: { webDistDir } });
  mailer = createMailboxMailer(testApp.mailboxDir, testApp.config.mailFrom, clock);
  await mailer.send({
    to: 'first@example.com',
    subject: 'Confirm your sign-up',
    text: `Follow this link to confirm: ${link}`,
    html: `<p>Follow <a href="${link}">this link</a> to confirm.</p>`,
  });
  time += 1000;
  await mailer.send({
    to: 'second@example.com',
    subject: 'Your code <b>123456</b>',
    text: 'Your code is 123456',
    html: '<p>Your code is <strong>123456</strong></p><script>parent.alert(1)</script>',
  });
  firstId = (await testApp.app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json().messages[1].id;
});
afterAll(async () => {
  await mailer?.close();
  await testApp?.close();
  await database?.close();
  rmSync(webDistDir, { recursive: true, force: true });
});

describe('the dev mailbox', () => {
  it('lists the messages as JSON, newest first, with their bodies', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/dev/mailbox.json' });
    expect(response.statusCode).toBe(200);
    const { messages } = response.json();
    expect(messages.map((message: { to: string }) => message.to)).toEqual([
      'second@example.com',
      'first@example.com',
    ]);
    expect(messages[1]).toEqual({
      id: expect.stringMatching(/^\d+-[0-9a-f]+$/),
      from: 'Covenant <no-reply@covenant.local>',
      to: 'first@example.com',
      subject: 'Confirm your sign-up',
      date: expect.any(String),
      text: `Follow this link to confirm: ${link}`,
      html: `<p>Follow <a href="${link}">this link</a> to confirm.</p>`,
    });
  });

  it('lists the messages as a page', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body.indexOf('second@example.com')).toBeLessThan(
      response.body.indexOf('first@example.com'),
    );
    expect(response.body).toContain('Your code &lt;b&gt;123456&lt;/b&gt;');
    expect(response.body).not.toContain('<b>123456</b>');
  });

  it('shows a message with its link clickable and its HTML in a sandbox', async () => {
    const { messages } = (await testApp.app.inject({ method: 'GET', url: '/dev/mailbox.json' })).json();
    const confirmation = await testApp.app.inject({ method: 'GET', url: `/dev/mailbox/${messages[1].id}` });
    expect(confirmation.statusCode).toBe(200);
    expect(confirmation.body).toContain(`<a href="${link.replaceAll('&', '&amp;')}">`);

    const code = await testApp.app.inject({ method: 'GET', url: `/dev/mailbox/${messages[0].id}` });
    const frame = code.body.match(/<iframe[^>]*>/)?.[0] ?? '';
    expect(frame).toContain('sandbox="allow-top-navigation-by-user-activation');
    expect(frame).not.toContain('allow-scripts');
    // The message's markup is inert text inside the attribute, not part of the page.
    expect(code.body).not.toContain('<script>parent.alert(1)</script>');
    expect(frame).toContain('&lt;script&gt;parent.alert(1)&lt;/script&gt;');
  });

  it.each(['0000-missing', '..%2F..%2Fetc%2Fpasswd', 'not-an-id'])(
    'answers 404 for message %s',
    async (id) => {
      const response = await testApp.app.inject({ method: 'GET', url: `/dev/mailbox/${id}` });
      expect(response.statusCode).toBe(404);
    },
  );

  it.each([
    ['an SMTP server is configured', { SMTP_URL: 'smtp://127.0.0.1:2525' }],
    ['in production', { NODE_ENV: 'production' }],
  ])('does not exist when %s, even on this machine', async (_case, env) => {
    const other = await buildTestApp({ database, env, clock, config: { webDistDir } });
    try {
      for (const url of ['/dev/mailbox.json', '/dev/mailbox', `/dev/mailbox/${firstId}`]) {
        const response = await other.app.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(unknownRoute(url));
      }
      // A browser gets the web app, whose mailbox page says the mailbox is not open here.
      const page = await other.app.inject({
        method: 'GET',
        url: '/dev/mailbox',
        headers: { accept: 'text/html' },
      });
      expect(page.body).toContain('<div id="root">');
    } finally {
      await other.close();
    }
  });
});

/** The answer to a path no route serves. */
function unknownRoute(url: string, method = 'GET') {
  return {
    error: {
      code: 'NOT_FOUND',
      message: `No route ${method} ${url}`,
      details: null,
      timestamp: clock().toISOString(),
    },
  };
}

describe('who the dev mailbox answers', () => {
  let trader: TestTrader;
  let admin: TestTrader;
  let adminWithoutSecondFactor: TestTrader;
  let mediator: TestTrader;
  let adminKey: string;

  beforeAll(async () => {
    const app = testApp.app;
    trader = await createTestTrader(app);
    admin = await createTestTrader(app, { roles: ['admin'] });
    adminWithoutSecondFactor = await createTestTrader(app, { roles: ['admin'], aal: 'aal1' });
    mediator = await createTestTrader(app, { roles: ['mediator'] });
    const key = generateApiKeyToken();
    await app.database.db
      .insert(schema.apiKeys)
      .values({ userId: admin.id, name: 'ops', prefix: key.prefix, keyHash: key.hash });
    adminKey = key.key;
  });

  const paths = () => ['/dev/mailbox.json', '/dev/mailbox', `/dev/mailbox/${firstId}`];

  function fromAnotherHost(url: string, headers: Record<string, string> = {}) {
    return testApp.app.inject({ method: 'GET', url, remoteAddress: '192.0.2.50', headers });
  }

  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])(
    'answers a request from %s',
    async (peer) => {
      for (const url of paths()) {
        const response = await testApp.app.inject({ method: 'GET', url, remoteAddress: peer });
        expect(response.statusCode, url).toBe(200);
      }
    },
  );

  it('does not exist for anyone on another host: anonymous, traders, staff without a second factor, other staff, API keys', async () => {
    const callers = {
      anonymous: undefined,
      trader: trader.token,
      'admin without a second factor': adminWithoutSecondFactor.token,
      'mediator with a second factor': mediator.token,
      "an admin's API key": adminKey,
      'a forged token': 'not.a.jwt',
    };
    for (const [caller, token] of Object.entries(callers)) {
      for (const url of paths()) {
        const response = await fromAnotherHost(url, token ? { authorization: `Bearer ${token}` } : {});
        expect(response.statusCode, `${caller} ${url}`).toBe(404);
        expect(response.json(), `${caller} ${url}`).toEqual(unknownRoute(url));
      }
    }
  });

  it('answers an admin whose session passed a second factor, from anywhere', async () => {
    for (const url of paths()) {
      const response = await fromAnotherHost(url, { authorization: `Bearer ${admin.token}` });
      expect(response.statusCode, url).toBe(200);
    }
    const { messages } = (
      await fromAnotherHost('/dev/mailbox.json', { authorization: `Bearer ${admin.token}` })
    ).json();
    expect(messages.map((message: { to: string }) => message.to)).toEqual([
      'second@example.com',
      'first@example.com',
    ]);
  });

  it('takes a request a proxy forwarded as one from elsewhere, even from loopback and with TRUST_PROXY', async () => {
    const behindProxy = await buildTestApp({ database, clock, env: { TRUST_PROXY: 'true' } });
    try {
      for (const headers of [
        { 'x-forwarded-for': '127.0.0.1' },
        { forwarded: 'for=127.0.0.1' },
        { 'x-real-ip': '127.0.0.1' },
        { via: '1.1 proxy' },
      ]) {
        const response = await behindProxy.app.inject({ method: 'GET', url: '/dev/mailbox.json', headers });
        expect(response.statusCode, JSON.stringify(headers)).toBe(404);
      }
      const direct = await behindProxy.app.inject({ method: 'GET', url: '/dev/mailbox.json' });
      expect(direct.statusCode).toBe(200);
    } finally {
      await behindProxy.close();
    }
  });

  it("sends a browser on another host to the web app's mailbox page, as when there is no mailbox", async () => {
    for (const url of ['/dev/mailbox', `/dev/mailbox/${firstId}`]) {
      const response = await fromAnotherHost(url, { accept: 'text/html' });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<div id="root">');
      expect(response.body).not.toContain('first@example.com');
    }
    const json = await fromAnotherHost('/dev/mailbox.json', { accept: 'text/html' });
    expect(json.statusCode).toBe(404);
  });

  it("judges the socket's real peer: loopback works, this machine's network address does not", async () => {
    const ownAddress = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .find((entry) => !entry.internal && entry.family === 'IPv4')?.address;
    if (!ownAddress) throw new Error('this test needs a non-loopback IPv4 interface');
    // The same signing key, so the admin's token holds there too.
    const listening = await buildTestApp({ database, clock, signingKey: testApp.app.signingKey });
    try {
      await listening.app.listen({ host: '0.0.0.0', port: 0 });
      const { port } = listening.app.server.address() as AddressInfo;
      const local = await fetch(`http://127.0.0.1:${port}/dev/mailbox.json`);
      expect(local.status).toBe(200);
      const remote = await fetch(`http://${ownAddress}:${port}/dev/mailbox.json`);
      expect(remote.status).toBe(404);
      const staff = await fetch(`http://${ownAddress}:${port}/dev/mailbox.json`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(staff.status).toBe(200);
    } finally {
      await listening.close();
    }
  });

  it('stops answering an admin whose second factor is gone', async () => {
    const downgraded = await createTestTrader(testApp.app, { roles: ['admin'] });
    const ok = await fromAnotherHost('/dev/mailbox.json', { authorization: `Bearer ${downgraded.token}` });
    expect(ok.statusCode).toBe(200);
    await testApp.app.database.db
      .update(schema.sessions)
      .set({ aal: 'aal1' })
      .where(eq(schema.sessions.userId, downgraded.id));
    const refused = await fromAnotherHost('/dev/mailbox.json', {
      authorization: `Bearer ${downgraded.token}`,
    });
    expect(refused.statusCode).toBe(404);
  });
});
