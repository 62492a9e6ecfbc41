import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrationsFolder, openDatabase } from './database.js';
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

describe('listening for notifications', () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  /** Resolves once `received` holds `count` payloads; fails the test after a while. */
  async function waitFor(received: string[], count: number, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (received.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${received.length} of ${count} notifications arrived`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('hears a NOTIFY committed through the pool, at commit, and none from a rollback', async () => {
    const received: string[] = [];
    const listener = await database.listen('test_events', (payload) => received.push(payload));
    try {
      await database.executeSql(`select pg_notify('test_events', 'alone')`);
      await waitFor(received, 1);
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_notify('test_events', 'in a transaction')`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        // Delivered at commit, not before.
        expect(received).toEqual(['alone']);
      });
      await expect(
        database.db.transaction(async (tx) => {
          await tx.execute(sql`select pg_notify('test_events', 'rolled back')`);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      await database.executeSql(`select pg_notify('other_channel', 'elsewhere')`);
      await database.executeSql(`select pg_notify('test_events', 'last')`);
      await waitFor(received, 3);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(received).toEqual(['alone', 'in a transaction', 'last']);
    } finally {
      await listener.close();
    }
  });

  it('hears the deal triggers of migration 0007', async () => {
    const received: string[] = [];
    const listener = await database.listen('deal_events', (payload) => received.push(payload));
    try {
      await database.executeSql(`select pg_notify('deal_events', json_build_object('kind', 'probe')::text)`);
      await waitFor(received, 1);
      expect(JSON.parse(received[0]!)).toEqual({ kind: 'probe' });
    } finally {
      await listener.close();
    }
  });

  it('keeps hearing after its connection dropped', async () => {
    const received: string[] = [];
    let reconnected = false;
    const listener = await database.listen(
      'test_events',
      (payload) => received.push(payload),
      () => {
        reconnected = true;
      },
    );
    try {
      if (database.engine === 'postgres') {
        // The listening connection is killed from outside; it comes back after the first pause.
        await database.executeSql(
          `select pg_terminate_backend(pid) from pg_stat_activity
           where application_name = 'covenant-listen' and datname = current_database()`,
        );
        const deadline = Date.now() + 5_000;
        while (!reconnected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(reconnected).toBe(true);
      } else {
        // PGlite's socket server drops the pool's connection after a failed statement; the
        // notifications then arrive on the pool's next connection.
        await expect(database.executeSql('select 1/0')).rejects.toThrow('division by zero');
      }
      await database.executeSql(`select pg_notify('test_events', 'after the drop')`);
      await waitFor(received, 1);
      expect(received).toEqual(['after the drop']);
    } finally {
      await listener.close();
    }
  });

  it('hears nothing once closed, and refuses a channel name that is not plain', async () => {
    const received: string[] = [];
    const listener = await database.listen('test_events', (payload) => received.push(payload));
    await listener.close();
    await database.executeSql(`select pg_notify('test_events', 'too late')`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toEqual([]);
    await expect(database.listen('x; drop table users', () => {})).rejects.toThrow(
      'not a plain channel name',
    );
  });

  it('closes its listeners with the database', async () => {
    const own = await createTestDatabase();
    const received: string[] = [];
    await own.listen('test_events', (payload) => received.push(payload));
    await own.close();
    await expect(own.ping()).rejects.toThrow();
    expect(received).toEqual([]);
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

describe('test databases', () => {
  it('each start with every migration applied, and what one writes the other never sees', async () => {
    const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    const first = await createTestDatabase();
    const second = await createTestDatabase();
    try {
      for (const database of [first, second]) {
        const applied = await database.executeSql(
          'select count(*)::int as n from drizzle.__drizzle_migrations',
        );
        expect(applied.rows).toEqual([{ n: journal.entries.length }]);
      }
      await first.db.insert(rateLimits).values({ key: 'only-in-first', count: 1, resetAt: later });
      expect(await second.db.select().from(rateLimits)).toEqual([]);
      const third = await createTestDatabase();
      try {
        expect(await third.db.select().from(rateLimits)).toEqual([]);
      } finally {
        await third.close();
      }
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe('locks across processes', () => {
  // A second Database on the same PostgreSQL database stands for another server process; PGlite
  // serves one process only, so there the work always runs.
  let database: Database;
  let otherProcess: Database | null;
  beforeAll(async () => {
    database = await createTestDatabase();
    otherProcess =
      database.engine === 'postgres'
        ? await openDatabase({ engine: 'postgres', url: database.connectionString })
        : null;
  });
  afterAll(async () => {
    await otherProcess?.close();
    await database?.close();
  });

  it('skips work another process is doing, and runs it once that process is done', async () => {
    const ran: string[] = [];
    const inside = await database.exclusively('engine-pass', async () => {
      ran.push('first');
      if (!otherProcess) return 'alone';
      expect(await otherProcess.tryExclusively('engine-pass', async () => void ran.push('other'))).toBe(
        false,
      );
      // Another name is another lock.
      expect(await otherProcess.tryExclusively('relayer:ETH', async () => void ran.push('relayer'))).toBe(
        true,
      );
      return 'held';
    });
    expect(inside).toBe(database.engine === 'postgres' ? 'held' : 'alone');
    const next = otherProcess ?? database;
    expect(await next.tryExclusively('engine-pass', async () => void ran.push('after'))).toBe(true);
    expect(ran).toEqual(database.engine === 'postgres' ? ['first', 'relayer', 'after'] : ['first', 'after']);
  });

  it('makes a waiting process run after the holder, in turn, and frees the lock when work fails', async () => {
    const order: string[] = [];
    let release = () => {};
    let started = () => {};
    const holderStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const holding = database.exclusively('relayer:ETH', async () => {
      order.push('holder starts');
      await new Promise<void>((resolve) => {
        release = resolve;
        started();
      });
      order.push('holder ends');
    });
    // The waiter asks only once the holder has the lock: on a busy machine it could otherwise win the race.
    await holderStarted;
    const waiter = (otherProcess ?? database).exclusively('relayer:ETH', async () => {
      order.push('waiter runs');
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await Promise.all([holding, waiter]);
    if (otherProcess) expect(order).toEqual(['holder starts', 'holder ends', 'waiter runs']);
    else expect(order).toContain('waiter runs');

    await expect(
      database.exclusively('relayer:ETH', async () => {
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await (otherProcess ?? database).tryExclusively('relayer:ETH', async () => {})).toBe(true);
  });
});
