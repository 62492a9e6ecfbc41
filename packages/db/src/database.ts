import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The typed database handle, the same type on both engines. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

export type DatabaseOptions =
  | { engine: 'postgres'; url: string }
  /** dataDir undefined → in-memory PGlite (tests). */
  | { engine: 'pglite'; dataDir?: string };

export interface Database {
  db: Db;
  engine: 'postgres' | 'pglite';
  /** The PGlite instance when embedded (pg-boss reaches it through a socket server). */
  pglite?: PGlite;
  /** The pg pool when on PostgreSQL. */
  pool?: pg.Pool;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.engine === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    return {
      db,
      engine: 'postgres',
      pool,
      migrate: () => migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder }),
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pglite = await PGlite.create(options.dataDir);
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  return {
    db,
    engine: 'pglite',
    pglite,
    migrate: () => migratePglite(drizzlePglite({ client: pglite, schema }), { migrationsFolder }),
    ping: async () => {
      await pglite.query('select 1');
    },
    close: () => pglite.close(),
  };
}
