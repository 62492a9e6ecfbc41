import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './database.js';
import { rateLimits } from './schema/index.js';
import { createTestDatabase } from './testing.js';

const later = new Date('2030-01-01T00:00:00Z');

describe('the test database', () => {
  let database: Database;
  let other: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    other = new pg.Client({ connectionString: database.connectionString });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await database?.close();
  });

  it('is migrated, and migrating again changes nothing', async () => {
    await database.migrate();
    const rows = await database.db.select().from(rateLimits);
    expect(rows).toEqual([]);
    await database.ping();
  });

  it('serves a named statement again after a statement failed', async () => {
    const named = database.db.select().from(rateLimits).prepare('database_test_rate_limits');
    await named.execute();
    await expect(database.executeSql('select 1/0')).rejects.toThrow('division by zero');
    await expect(named.execute()).resolves.toBeInstanceOf(Array);
  });

  it('is reachable by other clients through its connection string', async () => {
    await database.db.insert(rateLimits).values({ key: 'shared', count: 1, resetAt: later });
    const result = await other.query('select count from rate_limits where key = $1', ['shared']);
    expect(result.rows).toEqual([{ count: 1 }]);
  });

  it('keeps another connection out of an open transaction', async () => {
    let otherInsert: Promise<unknown> | undefined;
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(rateLimits).values({ key: 'rolled-back', count: 1, resetAt: later });
        // Not awaited: on PGlite it can only run once this transaction has ended.
        otherInsert = other.query(`insert into rate_limits values ('committed-1', 1, $1)`, [later]);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await tx.select().from(rateLimits);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await otherInsert;
    const keys = await database.db.select({ key: rateLimits.key }).from(rateLimits);
    expect(keys.map((row) => row.key)).toContain('committed-1');
    expect(keys.map((row) => row.key)).not.toContain('rolled-back');
  });

  it("keeps the app's queries out of another connection's open transaction", async () => {
    await other.query('begin');
    await other.query(`insert into rate_limits values ('rolled-back-2', 1, $1)`, [later]);
    const appInsert = database.db.insert(rateLimits).values({ key: 'committed-2', count: 1, resetAt: later });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await other.query('rollback');
    await appInsert;
    const keys = await database.db.select({ key: rateLimits.key }).from(rateLimits);
    expect(keys.map((row) => row.key)).toContain('committed-2');
    expect(keys.map((row) => row.key)).not.toContain('rolled-back-2');
  });

  it('answers many concurrent parameterised queries from several connections correctly', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        // Different statement texts and parameters, so a mix-up between connections would show.
        const result = await database.db.execute<{ n: number; s: string }>(
          sql`select ${i}::int + ${sql.raw(String(i % 7))} as n, ${`s${i}`}::text as s`,
        );
        return result.rows[0];
      }),
    );
    answers.forEach((answer, i) => {
      expect(answer).toEqual({ n: i + (i % 7), s: `s${i}` });
    });
  });
});

describe('an embedded database in a directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'covenant-pglite-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps its data across close and reopen, and refuses queries once closed', async () => {
    const first = await openDatabase({ engine: 'pglite', dataDir });
    await first.migrate();
    await first.db.insert(rateLimits).values({ key: 'kept', count: 3, resetAt: later });
    await first.close();
    await expect(first.ping()).rejects.toThrow();

    const second = await openDatabase({ engine: 'pglite', dataDir });
    try {
      await second.migrate();
      const rows = await second.db.select().from(rateLimits).where(eq(rateLimits.key, 'kept'));
      expect(rows).toEqual([{ key: 'kept', count: 3, resetAt: later }]);
    } finally {
      await second.close();
    }
  });
});
