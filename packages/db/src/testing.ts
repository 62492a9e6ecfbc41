import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from './database.js';

/** Where TEST_DB=postgres creates its throw-away databases. */
const postgresAdminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A migrated, empty database for one test file: PGlite in memory, or with TEST_DB=postgres a fresh
 * uniquely named database on the local PostgreSQL server, dropped again on close.
 */
export async function createTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== 'postgres') {
    const database = await openDatabase({ engine: 'pglite' });
    await database.migrate();
    return database;
  }
  const name = `covenant_test_${randomUUID().replaceAll('-', '')}`;
  await runAsAdmin(`create database "${name}"`);
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ engine: 'postgres', url: url.toString() });
  await database.migrate();
  return {
    ...database,
    close: async () => {
      await database.close();
      await runAsAdmin(`drop database if exists "${name}" with (force)`);
    },
  };
}

async function runAsAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
