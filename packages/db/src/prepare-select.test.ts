import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { oncePerDatabase, prepareSelect, prepareStatement } from './prepare-select.js';
import { profiles, sessions, userRoles, users } from './schema/index.js';
import { createTestDatabase } from './testing.js';

describe('prepareSelect', () => {
  let database: Database;
  let withProfile: string;
  let withoutProfile: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    const created = await db
      .insert(users)
      .values([
        {
          email: 'one@prepare-select.test',
          emailConfirmedAt: new Date('2026-01-02T03:04:05.678Z'),
          userMetadata: { name: 'One', nested: { list: [1, 'two', null] } },
        },
        { email: 'two@prepare-select.test', userMetadata: {} },
      ])
      .returning({ id: users.id });
    withProfile = created[0]!.id;
    withoutProfile = created[1]!.id;
    await db.insert(profiles).values({ id: withProfile, username: 'one', tierLimitUsd: '1234567890123' });
    await db.insert(userRoles).values([
      { userId: withProfile, role: 'admin' },
      { userId: withProfile, role: 'compliance' },
    ]);
    await db.insert(sessions).values({ userId: withProfile, amr: [{ method: 'password', timestamp: 1 }] });
  });
  afterAll(async () => {
    await database?.close();
  });

  /** Users with their own table nested, a left-joined profile's columns (null without one), and expressions. */
  const usersQuery = (db: Database['db']) => {
    const profile = alias(profiles, 'profile');
    return db
      .select({
        user: users,
        username: profile.username,
        tierLimit: profile.tierLimitUsd,
        kycCompleted: profile.kycCompleted,
        roles: sql<
          string[]
        >`array(select ${userRoles.role} from ${userRoles} where ${userRoles.userId} = ${users.id} order by 1)`,
        sessions:
          sql<number>`(select count(*) from ${sessions} where ${sessions.userId} = ${users.id})`.mapWith(
            Number,
          ),
        lastSession:
          sql<Date | null>`(select max(${sessions.createdAt}) from ${sessions} where ${sessions.userId} = ${users.id})`.mapWith(
            sessions.createdAt,
          ),
      })
      .from(users)
      .leftJoin(profile, eq(profile.id, users.id))
      .where(and(eq(users.email, sql.placeholder('email')), eq(sql`1`, sql.placeholder('one'))))
      .$dynamic();
  };

  it('reads the same rows, typed the same way, as drizzle’s own prepared statement', async () => {
    const { db } = database;
    const ours = prepareSelect(db, 'prepare_select_test_users', usersQuery(db));
    const drizzles = usersQuery(db).prepare('prepare_select_test_users_drizzle');
    for (const email of [
      'one@prepare-select.test',
      'two@prepare-select.test',
      'nobody@prepare-select.test',
    ]) {
      const expected = await drizzles.execute({ email, one: 1 });
      const actual = await ours.execute({ email, one: 1 });
      expect(actual).toEqual(expected);
      // The same statement runs again by its name.
      expect(await ours.execute({ email, one: 1 })).toEqual(expected);
    }
    const [one] = await ours.execute({ email: 'one@prepare-select.test', one: 1 });
    expect(one).toMatchObject({
      user: { id: withProfile, emailConfirmedAt: new Date('2026-01-02T03:04:05.678Z') },
      username: 'one',
      tierLimit: '1234567890123',
      roles: ['admin', 'compliance'],
      sessions: 1,
    });
    expect(one!.user.userMetadata).toEqual({ name: 'One', nested: { list: [1, 'two', null] } });
    expect(one!.lastSession).toBeInstanceOf(Date);
    const [two] = await ours.execute({ email: 'two@prepare-select.test', one: 1 });
    expect(two).toMatchObject({
      user: { id: withoutProfile, emailConfirmedAt: null },
      username: null,
      tierLimit: null,
      roles: [],
      sessions: 0,
      lastSession: null,
    });
  });

  it('refuses what it would not map as drizzle does: a left-joined table as an object, and a transaction', async () => {
    const { db } = database;
    expect(() =>
      prepareSelect(
        db,
        'prepare_select_test_joined',
        db
          .select({ user: users, profile: profiles })
          .from(users)
          .leftJoin(profiles, eq(profiles.id, users.id))
          .$dynamic(),
      ),
    ).toThrow('"profile" must be a column, an SQL expression or the query\'s own table');
    await db.transaction(async (tx) => {
      expect(() =>
        prepareSelect(
          tx as unknown as Database['db'],
          'prepare_select_test_tx',
          tx.select().from(users).$dynamic(),
        ),
      ).toThrow('has no pool');
    });
  });

  it('says which placeholder has no value', async () => {
    const { db } = database;
    const ours = prepareSelect(db, 'prepare_select_test_placeholder', usersQuery(db));
    await expect(ours.execute({ email: 'one@prepare-select.test' })).rejects.toThrow(
      'No value for placeholder "one" was provided',
    );
  });
});

describe('prepareStatement', () => {
  let database: Database;
  afterAll(async () => {
    await database?.close();
  });

  it('runs an upsert with returning, its columns decoded by the columns, as drizzle returns them', async () => {
    database = await createTestDatabase();
    const { db } = database;
    const confirmedAt = '2026-03-04T05:06:07.891Z';
    const upsert = () =>
      db
        .insert(users)
        .values({
          id: sql`${sql.placeholder('id')}::uuid`,
          email: sql.placeholder('email'),
          emailConfirmedAt: sql`${sql.placeholder('at')}::timestamptz`,
          userMetadata: { plan: 'otc' },
        })
        .onConflictDoUpdate({ target: users.id, set: { userMetadata: sql`excluded.user_metadata` } })
        .returning({
          email: users.email,
          emailConfirmedAt: users.emailConfirmedAt,
          meta: users.userMetadata,
        });
    const ours = prepareStatement(db, 'prepare_statement_test_upsert', upsert(), (row) => ({
      email: users.email.mapFromDriverValue(row[0]),
      emailConfirmedAt: users.emailConfirmedAt.mapFromDriverValue(row[1]),
      meta: users.userMetadata.mapFromDriverValue(row[2]),
    }));
    const drizzles = upsert().prepare('prepare_statement_test_upsert_drizzle');
    const values = { id: randomUUID(), email: 'upsert@prepare-select.test', at: confirmedAt };
    const first = await ours.execute(values);
    expect(first).toEqual([
      { email: values.email, emailConfirmedAt: new Date(confirmedAt), meta: { plan: 'otc' } },
    ]);
    expect(first[0]!.emailConfirmedAt).toBeInstanceOf(Date);
    expect(await ours.execute(values)).toEqual(await drizzles.execute(values));
  });
});

describe('oncePerDatabase', () => {
  it('prepares once for each database handle and hands the same result back after', () => {
    const prepared: object[] = [];
    const statementOf = oncePerDatabase((db) => {
      prepared.push(db);
      return { for: db };
    });
    const first = {} as Database['db'];
    const second = {} as Database['db'];
    const a = statementOf(first);
    expect(statementOf(first)).toBe(a);
    expect(statementOf(second)).not.toBe(a);
    expect(statementOf(second)).toEqual({ for: second });
    expect(prepared).toHaveLength(2);
    expect(prepared[0]).toBe(first);
    expect(prepared[1]).toBe(second);
  });
});
