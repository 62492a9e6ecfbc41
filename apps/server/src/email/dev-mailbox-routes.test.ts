import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../build-test-app.js';
import { createMailboxMailer } from './create-mailbox-mailer.js';
import type { Mailer } from './mailer.js';

let database: Database;
let testApp: TestApp;
let mailer: Mailer;
let time = new Date('2030-02-03T10:00:00Z').getTime();
const clock = () => new Date(time);

const link =
  'http://localhost:3000/auth/v1/verify?token=abc123&type=signup&redirect_to=http://localhost:3000/';

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database, clock });
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
});
afterAll(async () => {
  await mailer?.close();
  await testApp?.close();
  await database?.close();
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
  ])('is not served when %s', async (_case, env) => {
    const other = await buildTestApp({ database, env });
    try {
      const response = await other.app.inject({ method: 'GET', url: '/dev/mailbox.json' });
      expect(response.statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });
});
