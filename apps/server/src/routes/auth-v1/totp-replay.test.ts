import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createTestTrader } from '../../testing/create-test-trader.js';

// A TOTP code is accepted once (the factor's last time step). Requests sent at once with the same
// code each read the old step: only one of them may claim it.

const password = 'correct horse battery staple 42';
let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
let now = new Date('2031-06-01T10:00:00Z');
const later = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};
const epoch = () => Math.floor(now.getTime() / 1000);

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database, clock: () => now, authLimits: { sleep: async () => undefined } });
  app = testApp.app;
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

function call(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) {
  return app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
}

async function signIn(email: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/auth/v1/token?grant_type=password',
    payload: { email, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().access_token as string;
}

/** A trader with a verified factor, enrolled and verified through the API (its secret sealed). */
async function traderWithFactor() {
  const trader = await createTestTrader(app, { password });
  const enrolled = await call('POST', '/auth/v1/factors', trader.token, { factor_type: 'totp' });
  expect(enrolled.statusCode, enrolled.body).toBe(200);
  const { id: factorId, totp } = enrolled.json() as { id: string; totp: { secret: string } };
  const challenge = await call('POST', `/auth/v1/factors/${factorId}/challenge`, trader.token, {});
  const code = await generate({ secret: totp.secret, epoch: epoch() });
  const verified = await call('POST', `/auth/v1/factors/${factorId}/verify`, trader.token, {
    challenge_id: challenge.json().id,
    code,
  });
  expect(verified.statusCode, verified.body).toBe(200);
  // Past the step just used and its tolerance, so the next code is a new one.
  later(90);
  return { ...trader, factorId, secret: totp.secret };
}

async function lastTimeStepOf(factorId: string): Promise<number | null> {
  const [factor] = await database.db
    .select({ lastTimeStep: schema.mfaFactors.lastTimeStep })
    .from(schema.mfaFactors)
    .where(eq(schema.mfaFactors.id, factorId));
  return factor!.lastTimeStep;
}

describe('a TOTP code used by concurrent requests', () => {
  it('raises exactly one of two sessions verifying it at once', async () => {
    const trader = await traderWithFactor();
    const sessions = [await signIn(trader.email), await signIn(trader.email)];
    const challenges = await Promise.all(
      sessions.map(async (token) => {
        const challenge = await call('POST', `/auth/v1/factors/${trader.factorId}/challenge`, token, {});
        return challenge.json().id as string;
      }),
    );
    const code = await generate({ secret: trader.secret, epoch: epoch() });
    const answers = await Promise.all(
      sessions.map((token, index) =>
        call('POST', `/auth/v1/factors/${trader.factorId}/verify`, token, {
          challenge_id: challenges[index],
          code,
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422]);
    expect(answers.find((answer) => answer.statusCode === 422)?.json().error_code).toBe(
      'mfa_verification_failed',
    );
  });

  it('answers one challenge once, whichever codes come with it', async () => {
    const trader = await traderWithFactor();
    const token = await signIn(trader.email);
    const challenge = await call('POST', `/auth/v1/factors/${trader.factorId}/challenge`, token, {});
    const codes = [
      await generate({ secret: trader.secret, epoch: epoch() - 30 }),
      await generate({ secret: trader.secret, epoch: epoch() }),
    ];
    const answers = await Promise.all(
      codes.map((code) =>
        call('POST', `/auth/v1/factors/${trader.factorId}/verify`, token, {
          challenge_id: challenge.json().id,
          code,
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422]);
  });

  it('reauthenticates exactly one of two sessions sending it at once', async () => {
    const trader = await traderWithFactor();
    const sessions = [await signIn(trader.email), await signIn(trader.email)];
    const code = await generate({ secret: trader.secret, epoch: epoch() });
    const answers = await Promise.all(
      sessions.map((token) => call('POST', '/auth/v1/reauthenticate', token, { password, code })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422]);
  });
});

describe('a factor whose last time step is ahead of the clock', () => {
  it('refuses a code as wrong, never with a 500', async () => {
    const trader = await traderWithFactor();
    // A clock set back on the server (or a step written by a replica running ahead).
    const ahead = Math.floor(epoch() / 30) + 1_000;
    await database.db
      .update(schema.mfaFactors)
      .set({ lastTimeStep: ahead })
      .where(eq(schema.mfaFactors.id, trader.factorId));
    const token = await signIn(trader.email);
    const code = await generate({ secret: trader.secret, epoch: epoch() });
    const challenge = await call('POST', `/auth/v1/factors/${trader.factorId}/challenge`, token, {});
    const verified = await call('POST', `/auth/v1/factors/${trader.factorId}/verify`, token, {
      challenge_id: challenge.json().id,
      code,
    });
    expect([verified.statusCode, verified.json().error_code]).toEqual([422, 'mfa_verification_failed']);
    const reauthenticated = await call('POST', '/auth/v1/reauthenticate', token, { password, code });
    expect([reauthenticated.statusCode, reauthenticated.json().error_code]).toEqual([
      422,
      'mfa_verification_failed',
    ]);
    expect(await lastTimeStepOf(trader.factorId)).toBe(ahead);
  });
});

describe('second-factor challenges', () => {
  it('are opened at most 20 times in 15 minutes per user, each a row until it expires', async () => {
    const trader = await traderWithFactor();
    const token = await signIn(trader.email);
    const open = () => call('POST', `/auth/v1/factors/${trader.factorId}/challenge`, token, {});
    // traderWithFactor opened one 90 s ago, in the same window.
    for (let index = 0; index < 19; index += 1) expect((await open()).statusCode).toBe(200);
    const refused = await open();
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ error_code: 'over_request_rate_limit' });
    later(15 * 60);
    expect((await open()).statusCode).toBe(200);
  });
});
