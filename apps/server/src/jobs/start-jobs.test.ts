import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JobDefinition } from './job-definition.js';
import { createPruneRateLimitsJob } from './prune-rate-limits.js';
import { type JobQueue, startJobs } from './start-jobs.js';

describe('the job queue', () => {
  const now = new Date('2030-06-01T12:00:00Z');
  const worked: Array<{ greeting: string }> = [];
  const greet: JobDefinition<{ greeting: string }> = {
    name: 'greet',
    payload: z.object({ greeting: z.string() }),
    handle: async (data) => {
      worked.push(data);
    },
  };
  let database: Database;
  let jobs: JobQueue;

  beforeAll(async () => {
    database = await createTestDatabase();
    jobs = await startJobs({
      database,
      logger: pino({ level: 'silent' }),
      jobs: [greet, createPruneRateLimitsJob(database.db, () => now)],
      pollingIntervalSeconds: 0.5,
    });
  });
  afterAll(async () => {
    await jobs?.stop();
    await database?.close();
  });

  it('works a job it was sent, with its payload', async () => {
    await jobs.send(greet, { greeting: 'hello' });
    await expect.poll(() => worked, { timeout: 10_000 }).toEqual([{ greeting: 'hello' }]);
  });

  it('schedules a cron job with data its payload schema accepts (null would fail every scheduled run)', async () => {
    const { rows } = await database.executeSql(
      'select name, cron, data from pgboss.schedule where name = $1',
      ['prune-rate-limits'],
    );
    expect(rows).toEqual([{ name: 'prune-rate-limits', cron: '*/10 * * * *', data: {} }]);
    const job = createPruneRateLimitsJob(database.db, () => now);
    expect(job.payload.safeParse((rows[0] as { data: unknown }).data).success).toBe(true);
  });

  it('refuses to send a payload that does not fit the job', async () => {
    await expect(jobs.send(greet, { greeting: 42 } as unknown as { greeting: string })).rejects.toThrow();
  });

  it('prunes the rate-limit counters whose window has ended, and only those', async () => {
    await database.db.insert(schema.rateLimits).values([
      { key: 'ended', count: 5, resetAt: new Date('2030-06-01T11:59:59Z') },
      { key: 'running', count: 5, resetAt: new Date('2030-06-01T12:00:01Z') },
    ]);
    await jobs.send(
      createPruneRateLimitsJob(database.db, () => now),
      {},
    );
    await expect
      .poll(
        async () => (await database.db.select({ key: schema.rateLimits.key }).from(schema.rateLimits)).length,
        { timeout: 10_000 },
      )
      .toBe(1);
    const [left] = await database.db.select().from(schema.rateLimits);
    expect(left?.key).toBe('running');
  });
});
