import { randomUUID } from 'node:crypto';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq, sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKeyToken } from '../api/api-key-token.js';
import { createLogger } from './create-logger.js';

let database: Database;
let userId: string;
const stored = generateApiKeyToken();

beforeAll(async () => {
  database = await createTestDatabase();
  const [user] = await database.db
    .insert(schema.users)
    .values({ email: 'holder@example.com' })
    .returning({ id: schema.users.id });
  userId = user!.id;
  await database.db
    .insert(schema.apiKeys)
    .values({ userId, name: 'desk', prefix: stored.prefix, keyHash: stored.hash, createdAt: new Date() });
});
afterAll(async () => {
  await database?.close();
});

/** What a real query fails with: drizzle's DrizzleQueryError around the database's own error. */
async function failureOf(query: Promise<unknown>): Promise<DrizzleQueryError> {
  const error = await query.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof DrizzleQueryError)) throw new Error(`expected a DrizzleQueryError, got ${error}`);
  return error;
}

/** The error logged as the error handler logs it, as the JSON line that reaches stdout. */
function logged(error: Error): {
  line: string;
  err: Record<string, unknown> & { cause: Record<string, unknown> };
} {
  const lines: string[] = [];
  createLogger('info', { write: (line: string) => lines.push(line) }).error({ err: error }, 'request failed');
  const line = lines.join('');
  return { line, err: JSON.parse(line).err };
}

describe('a failed query in the log', () => {
  it("keeps the SQL and the constraint of a unique violation, never the new key's hash", async () => {
    const again = generateApiKeyToken();
    const error = await failureOf(
      database.db
        .insert(schema.apiKeys)
        .values({ userId, name: 'again', prefix: again.prefix, keyHash: stored.hash, createdAt: new Date() }),
    );
    // The raw error carries the hash three times: in its message, its params and the database's detail.
    expect(error.message).toContain(stored.hash);
    expect(error.params).toContain(stored.hash);
    expect((error.cause as { detail?: string }).detail).toContain(stored.hash);

    const { line, err } = logged(error);
    for (const secret of [stored.hash, stored.prefix, again.prefix, userId])
      expect(line).not.toContain(secret);
    expect(err).toMatchObject({
      type: 'DrizzleQueryError',
      query: expect.stringMatching(/^insert into "api_keys" \(.*"key_hash".*\) values \(/),
      params: '[redacted]',
      cause: {
        code: '23505',
        table: 'api_keys',
        detail: 'Key (key_hash)=([redacted]) already exists.',
      },
    });
    expect(err.cause.constraint).toMatch(/key_hash/);
    expect(err.stack).toMatch(/\nparams: \[redacted\]\n {4}at /);
  });

  it('masks the row of a NOT NULL violation and the key of a foreign-key violation', async () => {
    const notNull = await failureOf(
      database.db.execute(
        sql`insert into api_keys (user_id, name, prefix, key_hash, created_at) values (${userId}, ${null}, ${'cov_live_rowprefx'}, ${'row-hash-secret'}, now())`,
      ),
    );
    const foreignKey = await failureOf(
      database.db.insert(schema.apiKeys).values({
        userId: randomUUID(),
        name: 'orphan',
        prefix: 'cov_live_orphanpx',
        keyHash: 'orphan-hash-secret',
        createdAt: new Date(),
      }),
    );
    const nullLog = logged(notNull);
    expect(notNull.cause).toHaveProperty('detail', expect.stringContaining('row-hash-secret'));
    expect(nullLog.line).not.toContain('row-hash-secret');
    expect(nullLog.line).not.toContain('cov_live_rowprefx');
    expect(nullLog.err.cause).toMatchObject({ code: '23502', detail: 'Failing row contains ([redacted]).' });

    const keyLog = logged(foreignKey);
    expect(keyLog.line).not.toContain('orphan-hash-secret');
    expect(keyLog.err.cause).toMatchObject({
      code: '23503',
      detail: expect.stringMatching(/^Key \(user_id\)=\(\[redacted\]\) is not present in table "users"\.$/),
    });
  });

  it('masks the value a type refused, which PostgreSQL quotes in the message itself', async () => {
    const error = await failureOf(
      database.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, 'cov_live_notauuid0123456789')),
    );
    expect((error.cause as Error).message).toContain('cov_live_notauuid0123456789');
    const { line, err } = logged(error);
    expect(line).not.toContain('notauuid0123456789');
    expect(err.cause).toMatchObject({
      code: '22P02',
      message: 'invalid input syntax for type uuid: "[redacted]"',
    });
  });
});
