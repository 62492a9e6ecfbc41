import { randomUUID } from 'node:crypto';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { parseSetCookie } from 'cookie';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueDeviceToken } from '../../auth/device-token.js';
import { hashPassword } from '../../auth/hash-password.js';
import { generateSigningKey } from '../../auth/load-signing-key.js';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createDatabaseRateLimiter } from '../../plugins/rate-limit/create-database-rate-limiter.js';
import { createRedisRateLimiter } from '../../plugins/rate-limit/create-redis-rate-limiter.js';
import type { RateLimiter } from '../../plugins/rate-limit/rate-limiter.js';
import { testPublicUrl } from './start-auth-test-server.js';

// Sign-in throttling (ADR 012) with the production limits and delays; only the sleep is replaced by
// one that records each wait (and can hold it). Two servers share one database and one set of
// counters, like two replicas; TRUST_PROXY lets each request name its client address.

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const password = 'correct horse battery';
const tooMany =
  'Too many failed sign-in attempts for this account. Sign in on a device you have used before, or reset your password.';

const waits: number[] = [];
let held: Promise<void> | undefined;
const sleep = async (milliseconds: number) => {
  waits.push(milliseconds);
  await held;
};

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

let addresses = 0;
/** A client address no other test uses, so the per-network counts of tests stay apart. */
const newAddress = () => {
  addresses += 1;
  return `10.0.${Math.floor(addresses / 256)}.${addresses % 256}`;
};

interface Attempt {
  status: number;
  code: string | undefined;
  message: string | undefined;
  /** The wait before the password was checked; undefined when refused before any. */
  wait: number | undefined;
  /** `name=value` of the device cookie given, to send back. */
  deviceCookie: string | undefined;
  response: LightMyRequestResponse;
}

async function signIn(
  app: FastifyInstance,
  email: string,
  withPassword: string,
  from: string,
  cookie?: string,
  url = '/auth/v1/token?grant_type=password',
): Promise<Attempt> {
  const waitsBefore = waits.length;
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { 'x-forwarded-for': from, ...(cookie ? { cookie } : {}) },
    payload: { email, password: withPassword },
  });
  const body = response.json();
  const setCookie = response.headers['set-cookie'];
  const parsed = typeof setCookie === 'string' ? parseSetCookie(setCookie) : undefined;
  return {
    status: response.statusCode,
    code: body.code ?? body.error?.code,
    message: body.message ?? body.error?.message,
    wait: waits.length > waitsBefore ? waits[waitsBefore] : undefined,
    deviceCookie: parsed ? `${parsed.name}=${parsed.value}` : undefined,
    response,
  };
}

async function createAccount(app: FastifyInstance): Promise<{ id: string; email: string }> {
  const email = `owner.${randomUUID()}@example.com`;
  const now = app.clock();
  const [user] = await app.database.db
    .insert(schema.users)
    .values({ email, passwordHash: await hashPassword(password), emailConfirmedAt: now })
    .returning();
  await app.database.db.insert(schema.profiles).values({ id: user!.id });
  return { id: user!.id, email };
}

/** Signs in once with the right password, as the owner's browser did some day: its device cookie. */
async function knownDeviceOf(app: FastifyInstance, email: string): Promise<string> {
  const attempt = await signIn(app, email, password, newAddress());
  expect(attempt.status).toBe(200);
  return attempt.deviceCookie!;
}

/** `count` wrong passwords at once from `from`, as an attacker would send them. */
async function hammer(app: FastifyInstance, email: string, from: string, count: number) {
  return Promise.all(Array.from({ length: count }, (_, index) => signIn(app, email, `wrong ${index}`, from)));
}

const codesOf = (attempts: Attempt[]) =>
  attempts.map((attempt) => attempt.code).sort((a, b) => String(a).localeCompare(String(b)));

describe.each(['database', 'redis'] as const)('sign-in throttling with counts in the %s', (store) => {
  let one: TestApp;
  let other: TestApp;
  const limiters: RateLimiter[] = [];

  beforeAll(async () => {
    const signingKey = await generateSigningKey();
    const prefix = `covenant-test:${randomUUID()}:`;
    const start = async () => {
      const clock = () => new Date();
      const limiter =
        store === 'redis'
          ? createRedisRateLimiter(redisUrl, clock, pino({ level: 'silent' }), prefix)
          : createDatabaseRateLimiter(database.db, clock);
      limiters.push(limiter);
      return buildTestApp({
        database,
        env: { PUBLIC_URL: testPublicUrl, TRUST_PROXY: 'true' },
        rateLimiter: limiter,
        signingKey,
        authLimits: { sleep },
      });
    };
    one = await start();
    other = await start();
  });
  afterAll(async () => {
    await one?.close();
    await other?.close();
    for (const limiter of limiters) await limiter.close();
  });

  it('lets the right password in after 11 wrong ones: slowed, not refused', async () => {
    const { email } = await createAccount(one.app);
    const from = newAddress();
    const wrong = [];
    for (let index = 0; index < 11; index++) wrong.push(await signIn(one.app, email, 'wrong password', from));
    expect(wrong.map((attempt) => attempt.code)).toEqual(Array(11).fill('invalid_credentials'));
    // Three free failures, then 0.5 s doubling up to 4 s.
    expect(wrong.map((attempt) => attempt.wait)).toEqual([
      0, 0, 0, 500, 1000, 2000, 4000, 4000, 4000, 4000, 4000,
    ]);

    const right = await signIn(one.app, email, password, from);
    expect(right.status).toBe(200);
    expect(right.wait).toBe(4000);
  });

  it('throttles an unknown address exactly like a known one', async () => {
    const known = await createAccount(one.app);
    const unknown = `nobody.${randomUUID()}@example.com`;
    for (const email of [known.email, unknown]) {
      const attempts = [];
      for (let index = 0; index < 21; index++)
        attempts.push(await signIn(one.app, email, 'wrong', newAddress()));
      expect(attempts.slice(0, 20).map((attempt) => [attempt.status, attempt.message])).toEqual(
        Array(20).fill([400, 'Invalid login credentials']),
      );
      expect(attempts.slice(0, 6).map((attempt) => attempt.wait)).toEqual([0, 0, 0, 500, 1000, 2000]);
      expect([attempts[20]!.status, attempts[20]!.message]).toEqual([429, tooMany]);
    }
  });

  it("keeps the owner's known device signing in while an attacker hammers the account", async () => {
    const { email } = await createAccount(one.app);
    const device = await knownDeviceOf(one.app, email);

    const attack = await hammer(one.app, email, newAddress(), 25);
    // Counted before they are checked, so attempts at once cannot pass the limit of 20 together.
    expect(codesOf(attack)).toEqual([
      ...Array(20).fill('invalid_credentials'),
      ...Array(5).fill('over_request_rate_limit'),
    ]);

    const newBrowser = await signIn(one.app, email, password, newAddress());
    expect([newBrowser.status, newBrowser.message]).toEqual([429, tooMany]);
    expect(Number(newBrowser.response.headers['retry-after'])).toBeGreaterThan(800);

    const owner = await signIn(one.app, email, password, newAddress(), device);
    expect(owner.status).toBe(200);
    expect(owner.wait).toBe(0);
  });

  it("counts toward the account's limit only the failures of clients it does not know", async () => {
    const { email } = await createAccount(one.app);
    const device = await knownDeviceOf(one.app, email);
    const fromDevice = [];
    for (let index = 0; index < 10; index++) {
      fromDevice.push(await signIn(one.app, email, 'mistyped', newAddress(), device));
    }
    expect(fromDevice.map((attempt) => attempt.code)).toEqual(Array(10).fill('invalid_credentials'));
    expect(fromDevice.map((attempt) => attempt.wait)).toEqual([
      0, 0, 0, 500, 1000, 2000, 4000, 4000, 4000, 4000,
    ]);

    // The whole budget of 20 is still there for everyone else.
    expect(codesOf(await hammer(one.app, email, newAddress(), 21))).toEqual([
      ...Array(20).fill('invalid_credentials'),
      'over_request_rate_limit',
    ]);
    // Past its own 10 failures the device is judged like any other client.
    expect((await signIn(one.app, email, password, newAddress(), device)).code).toBe(
      'over_request_rate_limit',
    );
  });

  it('slows a network for its own failures only, IPv6 by its /64, and lets other accounts in from it', async () => {
    const { email } = await createAccount(one.app);
    const cases: { attacker: (index: number) => string; neighbour: string; elsewhere: string }[] = [
      { attacker: () => '203.0.113.50', neighbour: '203.0.113.50', elsewhere: '203.0.113.51' },
      {
        attacker: (index) => `2001:db8:50:1::${index + 1}`,
        neighbour: '2001:db8:50:1::ffff',
        elsewhere: '2001:db8:50:2::1',
      },
    ];
    for (const { attacker, neighbour, elsewhere } of cases) {
      // Credential stuffing: one guess each at many accounts, so no account's own count grows.
      const stuffing = [];
      for (let index = 0; index < 14; index++) {
        stuffing.push(
          await signIn(one.app, `victim.${randomUUID()}@example.com`, 'password1', attacker(index)),
        );
      }
      expect(stuffing.map((attempt) => attempt.wait)).toEqual([...Array(10).fill(0), 250, 500, 1000, 2000]);

      const fromTheNetwork = await signIn(one.app, email, password, neighbour);
      expect(fromTheNetwork.status).toBe(200);
      expect(fromTheNetwork.wait).toBe(4000);
      const fromElsewhere = await signIn(one.app, email, password, elsewhere);
      expect(fromElsewhere.status).toBe(200);
      expect(fromElsewhere.wait).toBe(0);
    }
  });

  it('waits before the password is checked, as long for a right password as for a wrong one', async () => {
    const first = await createAccount(one.app);
    const second = await createAccount(one.app);
    for (const { email } of [first, second]) {
      for (let index = 0; index < 5; index++) await signIn(one.app, email, 'wrong', newAddress());
    }
    let release = () => {};
    held = new Promise((resolve) => {
      release = resolve;
    });
    const waitsBefore = waits.length;
    const answered: string[] = [];
    const right = signIn(one.app, first.email, password, newAddress()).then((attempt) => {
      answered.push('right');
      return attempt;
    });
    const wrong = signIn(one.app, second.email, 'wrong', newAddress()).then((attempt) => {
      answered.push('wrong');
      return attempt;
    });
    try {
      await vi.waitFor(() => expect(waits.length).toBe(waitsBefore + 2));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Five failures: 2 s each, and neither answer comes before its wait is over.
      expect(waits.slice(waitsBefore)).toEqual([2000, 2000]);
      expect(answered).toEqual([]);
    } finally {
      held = undefined;
      release();
    }
    expect((await right).status).toBe(200);
    expect((await wrong).code).toBe('invalid_credentials');
  });

  it("gives nothing for a forged, expired, altered or other account's device cookie", async () => {
    const target = await createAccount(one.app);
    const bystander = await createAccount(one.app);
    const genuine = await knownDeviceOf(one.app, target.email);
    const [cookieName, genuineToken] = genuine.split('=') as [string, string];
    const otherAccountCookie = await knownDeviceOf(one.app, bystander.email);
    const accessToken = (await signIn(one.app, target.email, password, newAddress())).response.json()
      .access_token;
    await hammer(one.app, target.email, newAddress(), 20);

    const serverSigned = { signingKey: one.app.signingKey, config: one.app.config };
    const longAgo = () => new Date(Date.now() - 181 * 24 * 3600 * 1000);
    const [header, payload, signature] = genuineToken.split('.') as [string, string, string];
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const cookies = {
      'another account': otherAccountCookie,
      'another key': `${cookieName}=${await issueDeviceToken(
        { signingKey: await generateSigningKey(), config: one.app.config, now: () => new Date() },
        target.id,
      )}`,
      expired: `${cookieName}=${await issueDeviceToken({ ...serverSigned, now: longAgo }, target.id)}`,
      altered: `${cookieName}=${header}.${payload}.${flipped}`,
      'an access token': `${cookieName}=${accessToken}`,
    };
    for (const [what, cookie] of Object.entries(cookies)) {
      const attempt = await signIn(one.app, target.email, password, newAddress(), cookie);
      expect([what, attempt.status, attempt.code]).toEqual([what, 429, 'over_request_rate_limit']);
    }
    expect((await signIn(one.app, target.email, password, newAddress(), genuine)).status).toBe(200);
  });

  it('shares the counts and the device cookies between servers', async () => {
    const { email } = await createAccount(one.app);
    const device = await knownDeviceOf(one.app, email);
    const from = newAddress();
    const attack = [
      ...(await hammer(one.app, email, from, 10)),
      ...(await hammer(other.app, email, from, 10)),
    ];
    expect(attack.map((attempt) => attempt.code)).toEqual(Array(20).fill('invalid_credentials'));
    expect((await signIn(other.app, email, 'wrong', from)).code).toBe('over_request_rate_limit');
    expect((await signIn(one.app, email, password, newAddress())).code).toBe('over_request_rate_limit');
    expect((await signIn(other.app, email, password, newAddress(), device)).status).toBe(200);
  });

  it('gives the device cookie from the public API login too, and honours it there', async () => {
    const { email } = await createAccount(one.app);
    const login = '/api/v1/auth/login';
    const first = await signIn(one.app, email, password, newAddress(), undefined, login);
    expect(first.status).toBe(200);
    const setCookie = parseSetCookie(String(first.response.headers['set-cookie']));
    expect(setCookie).toMatchObject({
      httpOnly: true,
      sameSite: 'strict',
      path: '/',
      maxAge: 180 * 24 * 3600,
    });
    expect(setCookie.secure).toBeFalsy();

    await hammer(one.app, email, newAddress(), 20);
    const refused = await signIn(one.app, email, password, newAddress(), undefined, login);
    expect([refused.status, refused.code, refused.message]).toEqual([429, 'RATE_LIMITED', tooMany]);
    expect((await signIn(one.app, email, password, newAddress(), first.deviceCookie, login)).status).toBe(
      200,
    );

    const overHttps = await one.app.inject({
      method: 'POST',
      url: login,
      headers: { 'x-forwarded-for': newAddress(), 'x-forwarded-proto': 'https', cookie: first.deviceCookie! },
      payload: { email, password },
    });
    expect(parseSetCookie(String(overHttps.headers['set-cookie'])).secure).toBe(true);
  });
});

describe('the bench accounts (BENCH_UNTHROTTLED_SIGN_IN_EMAILS, never in production)', () => {
  let test: TestApp;
  const benchEmail = `bench.${randomUUID()}@example.com`;

  beforeAll(async () => {
    test = await buildTestApp({
      database,
      env: {
        PUBLIC_URL: testPublicUrl,
        TRUST_PROXY: 'true',
        BENCH_UNTHROTTLED_SIGN_IN_EMAILS: benchEmail.toUpperCase(),
      },
      authLimits: { sleep },
    });
  });
  afterAll(() => test?.close());

  it('signs the listed accounts in at once however many attempts came before, and throttles every other account as usual', async () => {
    const now = test.app.clock();
    const [user] = await test.app.database.db
      .insert(schema.users)
      .values({ email: benchEmail, passwordHash: await hashPassword(password), emailConfirmedAt: now })
      .returning();
    await test.app.database.db.insert(schema.profiles).values({ id: user!.id });
    const from = newAddress();

    const wrong = await hammer(test.app, benchEmail, from, 25);
    expect(codesOf(wrong)).toEqual(Array(25).fill('invalid_credentials'));
    expect(wrong.map((attempt) => attempt.wait)).toEqual(Array(25).fill(undefined));
    const right = await signIn(test.app, benchEmail, password, from);
    expect([right.status, right.wait]).toEqual([200, undefined]);

    const other = await createAccount(test.app);
    const attack = await hammer(test.app, other.email, newAddress(), 25);
    expect(codesOf(attack)).toEqual([
      ...Array(20).fill('invalid_credentials'),
      ...Array(5).fill('over_request_rate_limit'),
    ]);
  });
});
