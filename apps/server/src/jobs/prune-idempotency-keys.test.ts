import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPruneIdempotencyKeysJob } from './prune-idempotency-keys.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

describe('pruning idempotency keys', () => {
  it('deletes keys older than 24 hours and keeps the rest', async () => {
    const now = new Date('2030-03-02T12:00:00Z');
    const [user] = await database.db.insert(schema.users).values({ email: 'keys@example.com' }).returning();
    const key = (name: string, createdAt: string) => ({
      userId: user!.id,
      key: name,
      requestHash: 'h',
      statusCode: 201,
      responseBody: '{}',
      createdAt: new Date(createdAt),
    });
    await database.db
      .insert(schema.idempotencyKeys)
      .values([
        key('day-old-and-a-second', '2030-03-01T11:59:59Z'),
        key('exactly-a-day', '2030-03-01T12:00:00Z'),
        key('fresh', '2030-03-02T11:00:00Z'),
      ]);
    await createPruneIdempotencyKeysJob(database.db, () => now).handle({});
    const left = await database.db.select({ key: schema.idempotencyKeys.key }).from(schema.idempotencyKeys);
    expect(left.map((row) => row.key).sort()).toEqual(['exactly-a-day', 'fresh']);
  });
});
