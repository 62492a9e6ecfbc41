import { randomBytes } from 'node:crypto';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTotpSecret, sealClearTotpSecrets } from './totp-secrets.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

const masterKey = randomBytes(32);

async function factorWithSecret(secret: string) {
  const [user] = await database.db
    .insert(schema.users)
    .values({ email: `totp-${randomBytes(4).toString('hex')}@example.com` })
    .returning();
  const [factor] = await database.db
    .insert(schema.mfaFactors)
    .values({ userId: user!.id, factorType: 'totp', status: 'verified', secret })
    .returning();
  return factor!;
}

const storedSecret = async (id: string) =>
  (await database.db.select().from(schema.mfaFactors).where(eq(schema.mfaFactors.id, id)))[0]!.secret;

describe('TOTP secrets at rest', () => {
  it('seals the secrets left in clear once, and each opens only on its own factor', async () => {
    const first = await factorWithSecret('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    const second = await factorWithSecret('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(await sealClearTotpSecrets(database.db, masterKey)).toBe(2);
    expect(await sealClearTotpSecrets(database.db, masterKey)).toBe(0);

    const sealedFirst = await storedSecret(first.id);
    expect(sealedFirst).toMatch(/^sealed:v1:/);
    expect(sealedFirst).not.toContain('JBSWY3DP');
    expect(openTotpSecret(masterKey, { id: first.id, secret: sealedFirst })).toBe(
      'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    );
    expect(openTotpSecret(masterKey, { id: second.id, secret: await storedSecret(second.id) })).toBe(
      'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
    );
    // Copied onto another factor, or opened with another key, a sealed secret is refused.
    expect(() => openTotpSecret(masterKey, { id: second.id, secret: sealedFirst })).toThrow();
    expect(() => openTotpSecret(randomBytes(32), { id: first.id, secret: sealedFirst })).toThrow();
  });
});
