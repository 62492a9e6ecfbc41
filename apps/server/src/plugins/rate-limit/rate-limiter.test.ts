import { randomUUID } from 'node:crypto';
import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseRateLimiter } from './create-database-rate-limiter.js';
import { createRedisRateLimiter } from './create-redis-rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A clock the tests move by hand. */
function createManualClock(start: Date) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advanceSeconds: (seconds: number) => {
      now += seconds * 1000;
    },
  };
}

const clock = createManualClock(new Date('2030-03-01T10:00:00Z'));
let database: Database;
const stores: Record<string, () => RateLimiter> = {};
const limiters: RateLimiter[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const databaseLimiter = createDatabaseRateLimiter(database.db, clock.now);
  const redisLimiter = createRedisRateLimiter(redisUrl, clock.now, pino({ level: 'silent' }));
  limiters.push(databaseLimiter, redisLimiter);
  stores.database = () => databaseLimiter;
  stores.redis = () => redisLimiter;
});
afterAll(async () => {
  for (const limiter of limiters) await limiter.close();
  await database?.close();
});

describe.each(['database', 'redis'])('the %s rate limiter', (store) => {
  const limiter = () => stores[store]!();
  const uniqueKey = () => `test:${randomUUID()}`;

  it('allows up to the limit in a window, then refuses with the time to wait', async () => {
    const key = uniqueKey();
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter().consume(key, 3, 60));
    expect(decisions.map((decision) => [decision.allowed, decision.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions[0]!.retryAfterSeconds).toBe(0);
    expect(decisions[3]!.retryAfterSeconds).toBeGreaterThan(55);
    expect(decisions[3]!.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(decisions[3]!.resetAt.getTime()).toBeGreaterThan(clock.now().getTime());
  });

  it('counts every key on its own', async () => {
    const first = uniqueKey();
    await limiter().consume(first, 1, 60);
    expect((await limiter().consume(first, 1, 60)).allowed).toBe(false);
    expect((await limiter().consume(uniqueKey(), 1, 60)).allowed).toBe(true);
  });

  it('lets exactly the limit through when requests arrive at once', async () => {
    const key = uniqueKey();
    const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter().consume(key, 10, 60)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
  });

  it('takes a refunded request back, never below zero, in the same window', async () => {
    const key = uniqueKey();
    await limiter().refund(key);
    expect((await limiter().consume(key, 2, 60)).remaining).toBe(1);
    expect((await limiter().consume(key, 2, 60)).remaining).toBe(0);
    await limiter().refund(key);
    await limiter().refund(key);
    await limiter().refund(key);
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await limiter().consume(key, 2, 60));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, false]);
  });

  it('keeps the window of a refunded count', async () => {
    const key = uniqueKey();
    const first = await limiter().consume(key, 5, 60);
    await limiter().refund(key);
    const again = await limiter().consume(key, 5, 60);
    expect(again.remaining).toBe(4);
    expect(Math.abs(again.resetAt.getTime() - first.resetAt.getTime())).toBeLessThan(1000);
  });

  it('counts refunds and requests arriving at once exactly', async () => {
    const key = uniqueKey();
    await Promise.all(Array.from({ length: 20 }, () => limiter().consume(key, 100, 60)));
    await Promise.all(Array.from({ length: 15 }, () => limiter().refund(key)));
    expect((await limiter().consume(key, 100, 60)).remaining).toBe(100 - 6);
  });
});

describe('a window ending', () => {
  it('starts the database count again', async () => {
    const limiter = stores.database!();
    const key = `test:${randomUUID()}`;
    await limiter.consume(key, 1, 30);
    expect((await limiter.consume(key, 1, 30)).allowed).toBe(false);
    clock.advanceSeconds(30);
    const decision = await limiter.consume(key, 1, 30);
    expect(decision).toMatchObject({ allowed: true, remaining: 0, retryAfterSeconds: 0 });
    expect(decision.resetAt).toEqual(new Date(clock.now().getTime() + 30_000));
  });

  it('starts the Redis count again (Redis keeps its own time)', async () => {
    const limiter = stores.redis!();
    const key = `test:${randomUUID()}`;
    await limiter.consume(key, 1, 1);
    expect((await limiter.consume(key, 1, 1)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await limiter.consume(key, 1, 1)).allowed).toBe(true);
  });
});
