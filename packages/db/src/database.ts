import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import {
  channelPattern,
  listenOnPglite,
  listenOnPostgres,
  type Notified,
} from './listen-for-notifications.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The typed database handle; both engines speak through node-postgres, so it is one type. */
export type Db = NodePgDatabase<Schema>;

export const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

export type DatabaseOptions =
  | { engine: 'postgres'; url: string }
  /**
   * dataDir undefined → in-memory PGlite (tests). `image` starts it from a data directory dumped by
   * `migratedPgliteImage` instead of running initdb (tests: much faster).
   */
  | { engine: 'pglite'; dataDir?: string; image?: Blob };

export interface Database {
  db: Db;
  engine: 'postgres' | 'pglite';
  /**
   * A PostgreSQL connection string that reaches this database: the server's URL, or for PGlite its
   * loopback socket server. Other clients (pg-boss) connect with it.
   */
  connectionString: string;
  /**
   * Whether other clients must share this database's own connection (`executeSql`) instead of opening
   * their own with `connectionString`: true for PGlite, whose one session cannot serve two safely.
   */
  sharedConnectionOnly: boolean;
  /** A query on the app's own pool, for clients such as pg-boss that take an `executeSql` function. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /**
   * Runs `work` while holding the lock `name` across every process on this database (a PostgreSQL
   * session advisory lock, held on a connection of its own for the whole run), waiting for it when
   * another process holds it. PGlite serves one process, so there `work` just runs.
   */
  exclusively<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** As `exclusively`, but when another process holds the lock, does not wait and resolves to false. */
  tryExclusively(name: string, work: () => Promise<void>): Promise<boolean>;
  /**
   * LISTENs on `channel` until the listener is closed (or the database is). `onNotify` gets each
   * payload, delivered at the notifying transaction's commit. On PostgreSQL a dedicated connection
   * listens and reconnects with backoff after a drop; notifications sent meanwhile are lost, so
   * `onReconnect` tells the caller to catch up.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onReconnect?: () => void,
  ): Promise<DatabaseListener>;
  close(): Promise<void>;
}

export interface DatabaseListener {
  close(): Promise<void>;
}

/** Any number works as long as nothing else in the database uses it for an advisory lock. */
const migrationLockId = 4_172_601;
/** Room for the app's single connection and a few ad-hoc ones (tests, a psql session). */
const embeddedMaxConnections = 8;

/**
 * Opens the database. Both engines are reached through the same `pg` driver: PostgreSQL directly,
 * PGlite through a socket server on a random loopback port.
 * PGlite runs one session for everyone, and its socket server interleaves the protocol messages of
 * different connections: a Parse from one connection can land between another's Parse and Bind, so
 * the second binds to the wrong statement. The embedded engine therefore gets exactly one connection,
 * shared by the app and the job queue (`executeSql`); concurrent callers wait their turn in the pool.
 * The price: code must never await another query from inside a transaction (it would wait forever).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.engine === 'postgres') {
    const { url } = options;
    return connect(
      'postgres',
      url,
      10,
      async () => {},
      (channel, notified) => listenOnPostgres(url, channel, notified),
    );
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.image ? { loadDataDir: options.image } : {}),
  });
  return servePglite(pglite);
}

/** A fresh in-memory PGlite with every migration applied, dumped as a data-directory image. */
export async function migratedPgliteImage(): Promise<Blob> {
  const pglite = await PGlite.create();
  const database = await servePglite(pglite);
  try {
    await database.migrate();
    // Everything written to the data files, so the image starts without replaying the WAL.
    await pglite.exec('checkpoint');
    return await pglite.dumpDataDir('none');
  } finally {
    await database.close();
  }
}

async function servePglite(pglite: PGlite): Promise<Database> {
  const server = new PGLiteSocketServer({
    db: pglite,
    host: '127.0.0.1',
    port: 0,
    maxConnections: embeddedMaxConnections,
  });
  await server.start();
  return connect(
    'pglite',
    `postgres://postgres@${server.getServerConn()}/postgres`,
    1,
    async () => {
      await server.stop();
      await pglite.close();
    },
    (channel, notified, pooled) => listenOnPglite(pglite, channel, notified, pooled),
  );
}

type ListenVia = (channel: string, notified: Notified, pooled: EventEmitter) => Promise<DatabaseListener>;

async function connect(
  engine: Database['engine'],
  connectionString: string,
  maxConnections: number,
  closeEngine: () => Promise<void>,
  listenVia: ListenVia,
): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  /** Notifications arriving on pool connections, by channel (only PGlite's shared session gets any). */
  const pooled = new EventEmitter();
  const listeners = new Set<DatabaseListener>();
  // An idle client that breaks (server restart) is dropped by the pool and replaced on next use;
  // queries report their own errors. Without a listener the process would crash instead.
  pool.on('error', () => {});
  if (engine === 'pglite') {
    // The socket server drops a connection after a failed statement (and the pool drops idle ones),
    // but PGlite's one session keeps the named statements the old connection prepared: the new
    // connection would prepare them again and fail with "prepared statement … already exists". Queued
    // before the pool hands the connection out.
    pool.on('connect', (client) => {
      client.query('deallocate all').catch(() => {});
      client.on('notification', (message) => pooled.emit(message.channel, message.payload ?? ''));
    });
  }
  const db = drizzle({ client: pool, schema });
  return {
    db,
    engine,
    connectionString,
    sharedConnectionOnly: engine === 'pglite',
    executeSql: (text, values) => pool.query(text, values),
    migrate: () => migrateExclusively(pool),
    ping: async () => {
      await pool.query('select 1');
    },
    exclusively: async (name, work) => {
      if (engine === 'pglite') return work();
      // Waiting, it always gets the lock.
      return (await holdingLock(pool, name, true, work))!.value;
    },
    tryExclusively: async (name, work) => {
      if (engine === 'pglite') {
        await work();
        return true;
      }
      return (await holdingLock(pool, name, false, work)) !== null;
    },
    listen: async (channel, onNotify, onReconnect) => {
      if (!channelPattern.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
      const notified = { payload: onNotify, reconnected: onReconnect ?? (() => {}) };
      const listener = await listenVia(channel, notified, pooled);
      const tracked: DatabaseListener = {
        close: async () => {
          listeners.delete(tracked);
          await listener.close();
        },
      };
      listeners.add(tracked);
      return tracked;
    },
    close: async () => {
      await Promise.all([...listeners].map((listener) => listener.close()));
      await pool.end();
      await closeEngine();
    },
  };
}

/** The advisory lock key of a named lock: 48 bits of its SHA-256, so names do not collide in practice. */
function advisoryLockKey(name: string): string {
  return BigInt(`0x${createHash('sha256').update(`covenant:${name}`).digest('hex').slice(0, 12)}`).toString();
}

/** Runs `work` holding the named session lock on a connection of its own; null when `wait` is false and the lock is taken. */
async function holdingLock<T>(
  pool: pg.Pool,
  name: string,
  wait: boolean,
  work: () => Promise<T>,
): Promise<{ value: T } | null> {
  const key = advisoryLockKey(name);
  const client = await pool.connect();
  let held = false;
  let broken = false;
  try {
    if (wait) {
      await client.query('select pg_advisory_lock($1::bigint)', [key]);
      held = true;
    } else {
      const { rows } = await client.query<{ held: boolean }>(
        'select pg_try_advisory_lock($1::bigint) as held',
        [key],
      );
      held = rows[0]?.held === true;
      if (!held) return null;
    }
    return { value: await work() };
  } catch (error) {
    broken = !held;
    throw error;
  } finally {
    if (held) {
      // A connection that cannot unlock is closed instead: PostgreSQL drops its locks with it.
      await client.query('select pg_advisory_unlock($1::bigint)', [key]).catch(() => {
        broken = true;
      });
    }
    client.release(broken);
  }
}

/** Server replicas starting together must not apply the same migration twice. */
async function migrateExclusively(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [migrationLockId]);
    try {
      await migrate(drizzle({ client, schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [migrationLockId]);
    }
  } finally {
    client.release();
  }
}
