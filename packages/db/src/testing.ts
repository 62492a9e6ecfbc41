import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, migratedPgliteImage, migrationsFolder, openDatabase } from './database.js';

/** Where TEST_DB=postgres creates its throw-away databases. */
const postgresAdminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A migrated, empty database for one test file: PGlite in memory, or with TEST_DB=postgres a fresh
 * uniquely named database on the local PostgreSQL server, dropped again on close.
 */
export async function createTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== 'postgres') {
    const database = await openDatabase({ engine: 'pglite', image: await pgliteImage() });
    // The image is already migrated; this finds nothing to do (and would catch a stale image).
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

/**
 * A migrated PGlite data directory, made once per set of migrations and PGlite version and kept in
 * the system's temp folder for every test file and run after: starting from it takes a fraction of
 * the second and a half that initdb and the migrations take on each fresh PGlite.
 */
function pgliteImage(): Promise<Blob> {
  // Once per process: a test file opening several databases reads the image once.
  processImage ??= readOrMakeImage().catch((error: unknown) => {
    processImage = undefined;
    throw error;
  });
  return processImage;
}

let processImage: Promise<Blob> | undefined;

async function readOrMakeImage(): Promise<Blob> {
  const path = join(tmpdir(), `${imagePrefix}${imageKey()}.tar`);
  const cached = await readFile(path).catch(() => null);
  if (cached) return new Blob([cached]);
  const image = await migratedPgliteImage();
  // Written aside and renamed into place: test files starting at once never read half an image.
  const partial = `${path}.${randomUUID()}`;
  await writeFile(partial, Buffer.from(await image.arrayBuffer()));
  await rename(partial, path);
  await removeStaleImages(path);
  return image;
}

const imagePrefix = 'covenant-pglite-migrated-';

/** Changes whenever a migration file or the pinned PGlite version does. */
function imageKey(): string {
  const hash = createHash('sha256');
  // The pinned PGlite version: an image is only good for the version that wrote it.
  const ownPackage = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  hash.update(ownPackage.dependencies['@electric-sql/pglite'] ?? '');
  for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const path = join(migrationsFolder, name);
    hash.update(name);
    try {
      hash.update(readFileSync(path));
    } catch {
      // a folder (meta/)
    }
  }
  return hash.digest('hex').slice(0, 16);
}

async function removeStaleImages(current: string): Promise<void> {
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (name.startsWith(imagePrefix) && name.endsWith('.tar') && path !== current) {
      await rm(path, { force: true });
    }
  }
}
