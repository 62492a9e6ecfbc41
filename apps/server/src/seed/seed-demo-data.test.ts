import { randomBytes } from 'node:crypto';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../auth/hash-password.js';
import { sealClearTotpSecrets } from '../auth/totp-secrets.js';
import { demoPassword, demoStaffTotpSecret, findDemoAccounts, seedDemoData } from './seed-demo-data.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

describe('seedDemoData', () => {
  it('creates the six demo accounts with their profiles and roles, once', async () => {
    const first = await seedDemoData(database.db);
    const second = await seedDemoData(database.db);
    expect(second).toEqual(first);
    expect(first.map((account) => account.email)).toEqual([
      'buyer@demo.covenant.test',
      'seller@demo.covenant.test',
      'unverified@demo.covenant.test',
      'mediator@demo.covenant.test',
      'admin@demo.covenant.test',
      'concierge@demo.covenant.test',
    ]);
    expect(first.every((account) => account.password === 'covenant-demo')).toBe(true);

    const { users, profiles, userRoles } = schema;
    const rows = await database.db
      .select({
        email: users.email,
        confirmed: users.emailConfirmedAt,
        passwordHash: users.passwordHash,
        username: profiles.username,
        verificationStatus: profiles.verificationStatus,
        tradingTier: profiles.tradingTier,
        kycCompleted: profiles.kycCompleted,
      })
      .from(users)
      .innerJoin(profiles, eq(profiles.id, users.id))
      .orderBy(asc(users.email));
    expect(rows).toHaveLength(6);
    expect(rows.every((row) => row.confirmed !== null)).toBe(true);
    expect(await verifyPassword(rows[0]!.passwordHash!, demoPassword)).toBe(true);
    const byEmail = Object.fromEntries(rows.map((row) => [row.email, row]));
    expect(byEmail['buyer@demo.covenant.test']).toMatchObject({
      username: 'demo_buyer',
      verificationStatus: 'verified',
      tradingTier: 'enhanced',
      kycCompleted: true,
    });
    expect(byEmail['seller@demo.covenant.test']).toMatchObject({
      verificationStatus: 'verified',
      tradingTier: 'enhanced',
      kycCompleted: true,
    });
    expect(byEmail['unverified@demo.covenant.test']).toMatchObject({
      verificationStatus: 'unverified',
      kycCompleted: false,
    });

    const roles = await database.db
      .select({ email: users.email, role: userRoles.role })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .orderBy(asc(users.email), asc(userRoles.role));
    expect(roles).toEqual([
      { email: 'admin@demo.covenant.test', role: 'admin' },
      { email: 'admin@demo.covenant.test', role: 'compliance' },
      { email: 'concierge@demo.covenant.test', role: 'concierge' },
      { email: 'mediator@demo.covenant.test', role: 'mediator' },
    ]);

    const factors = await database.db
      .select({ email: users.email, status: schema.mfaFactors.status, secret: schema.mfaFactors.secret })
      .from(schema.mfaFactors)
      .innerJoin(users, eq(users.id, schema.mfaFactors.userId))
      .orderBy(asc(users.email));
    expect(factors).toEqual([
      { email: 'admin@demo.covenant.test', status: 'verified', secret: demoStaffTotpSecret },
      { email: 'concierge@demo.covenant.test', status: 'verified', secret: demoStaffTotpSecret },
      { email: 'mediator@demo.covenant.test', status: 'verified', secret: demoStaffTotpSecret },
    ]);
    expect(first.filter((account) => account.totpSecret).map((account) => account.email)).toEqual([
      'mediator@demo.covenant.test',
      'admin@demo.covenant.test',
      'concierge@demo.covenant.test',
    ]);
    // The start seals the seeded secrets; the accounts are still found with their published secret.
    const masterKey = randomBytes(32);
    expect(await sealClearTotpSecrets(database.db, masterKey)).toBe(3);
    const sealed = await database.db.select({ secret: schema.mfaFactors.secret }).from(schema.mfaFactors);
    expect(sealed.map((row) => row.secret)).toEqual([
      expect.stringMatching(/^sealed:v1:/),
      expect.stringMatching(/^sealed:v1:/),
      expect.stringMatching(/^sealed:v1:/),
    ]);
    expect(await findDemoAccounts(database.db, masterKey)).toEqual(first);
    expect(demoStaffTotpSecret).toMatch(/^[A-Z2-7]{32}$/);
  });
});
