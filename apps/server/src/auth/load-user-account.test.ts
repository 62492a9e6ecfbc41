import { randomBytes } from 'node:crypto';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findUserByEmail } from './find-user-by-email.js';
import { findUserAccountByEmail, loadUserAccount } from './load-user-account.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

async function newUser(name: string) {
  const email = `${name}-${randomBytes(4).toString('hex')}@Example.com`;
  const [user] = await database.db
    .insert(schema.users)
    .values({ email, passwordHash: 'not-a-hash' })
    .returning();
  return user!;
}

it('reads by e-mail, in one statement, the account loadUserAccount reads from the user found by e-mail', async () => {
  const plain = await newUser('plain');
  const full = await newUser('full');
  await database.db.insert(schema.userRoles).values([
    { userId: full.id, role: 'mediator' },
    { userId: full.id, role: 'admin' },
  ]);
  await database.db
    .insert(schema.mfaFactors)
    .values({ userId: full.id, factorType: 'totp', status: 'verified', secret: 'JBSWY3DPEHPK3PXP' });
  await database.db.insert(schema.identities).values({
    userId: full.id,
    provider: 'google',
    providerId: `sub-${full.id}`,
    email: full.email,
    identityData: { email: full.email },
  });

  for (const user of [plain, full]) {
    // Addresses are matched in any case, as findUserByEmail matches them.
    for (const email of [user.email, user.email.toUpperCase(), user.email.toLowerCase()]) {
      const found = await findUserAccountByEmail(database.db, email);
      const expected = await findUserByEmail(database.db, email);
      expect(found?.user).toEqual(expected);
      expect(await found?.account()).toEqual(await loadUserAccount(database.db, expected!));
    }
  }
  const fullAccount = await (await findUserAccountByEmail(database.db, full.email))!.account();
  expect(fullAccount.roles).toEqual(['admin', 'mediator']);
  expect(fullAccount.factors).toHaveLength(1);
  expect(fullAccount.identities).toHaveLength(1);
  const plainAccount = await (await findUserAccountByEmail(database.db, plain.email))!.account();
  expect(plainAccount).toMatchObject({ roles: [], factors: [], identities: [] });
});

it('finds no one for an address no account has', async () => {
  expect(await findUserAccountByEmail(database.db, 'nobody@example.com')).toBeUndefined();
});
