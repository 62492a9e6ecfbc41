import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import type { MailMessage } from '../../email/mailer.js';
import { createTestTrader } from '../../testing/create-test-trader.js';

// A 6-digit code gets 5 tries. Guesses sent at once must share them, not each see an untouched
// count, and a right code is spent once however many requests carry it.

const password = 'correct horse battery staple 42';
let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
const sent: MailMessage[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({
    database,
    mailer: { send: async (message) => void sent.push(message), close: async () => {} },
    authLimits: { sleep: async () => undefined },
  });
  app = testApp.app;
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

async function codeSentTo(to: string, subject: string): Promise<string> {
  await expect
    .poll(() => sent.some((message) => message.to === to && message.subject.includes(subject)))
    .toBe(true);
  const message = sent.findLast((entry) => entry.to === to && entry.subject.includes(subject))!;
  return /Your code: (\d{6})/.exec(message.text)![1]!;
}

/** Six-digit codes other than `code`. */
const wrongCodes = (code: string, count: number) =>
  Array.from({ length: count }, (_, index) =>
    String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0'),
  );

async function tokensOf(userId: string) {
  return database.db.select().from(schema.oneTimeTokens).where(eq(schema.oneTimeTokens.userId, userId));
}

describe('the reauthentication nonce', () => {
  async function requestNonce() {
    const trader = await createTestTrader(app, { password });
    const asked = await app.inject({
      method: 'GET',
      url: '/auth/v1/reauthenticate',
      headers: { authorization: `Bearer ${trader.token}` },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    return { trader, nonce: await codeSentTo(trader.email, 'confirmation code') };
  }
  const changePassword = (token: string, nonce: string, newPassword: string) =>
    app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: { authorization: `Bearer ${token}` },
      payload: { password: newPassword, nonce },
    });

  it('is refused after wrong guesses sent at once have spent its attempts', async () => {
    const { trader, nonce } = await requestNonce();
    const guesses = await Promise.all(
      wrongCodes(nonce, 8).map((guess) => changePassword(trader.token, guess, 'guessed my way in')),
    );
    expect(guesses.map((guess) => guess.json().error_code)).toEqual(
      Array(8).fill('reauthentication_not_valid'),
    );
    for (const token of await tokensOf(trader.id)) expect(token.failedAttempts).toBeLessThanOrEqual(5);
    const right = await changePassword(trader.token, nonce, 'guessed my way in');
    expect([right.statusCode, right.json().error_code]).toEqual([422, 'reauthentication_not_valid']);
  });

  it('is spent once by requests sending it at once', async () => {
    const { trader, nonce } = await requestNonce();
    const answers = await Promise.all(
      ['first new password', 'second new password'].map((next) => changePassword(trader.token, nonce, next)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422]);
  });
});

describe('an e-mailed sign-in code', () => {
  it('is refused after wrong guesses sent at once have spent its attempts', async () => {
    const trader = await createTestTrader(app, { password });
    const asked = await app.inject({
      method: 'POST',
      url: '/auth/v1/otp',
      payload: { email: trader.email, create_user: false },
    });
    expect(asked.statusCode).toBe(200);
    const code = await codeSentTo(trader.email, 'sign-in code');
    const verify = (token: string) =>
      app.inject({
        method: 'POST',
        url: '/auth/v1/verify',
        payload: { type: 'email', email: trader.email, token },
      });
    const guesses = await Promise.all(wrongCodes(code, 7).map(verify));
    expect(guesses.map((guess) => guess.statusCode)).toEqual(Array(7).fill(403));
    for (const token of await tokensOf(trader.id)) expect(token.failedAttempts).toBeLessThanOrEqual(5);
    const right = await verify(code);
    expect([right.statusCode, right.json().error_code]).toEqual([403, 'otp_expired']);
  });
});
