import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPruneMfaChallengesJob } from './prune-mfa-challenges.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

describe('pruning second-factor challenges', () => {
  it('deletes the challenges past their expiry, answered or not, and keeps those that can still be answered', async () => {
    const now = new Date('2030-03-02T12:00:00Z');
    const [user] = await database.db.insert(schema.users).values({ email: 'mfa@example.com' }).returning();
    const [factor] = await database.db
      .insert(schema.mfaFactors)
      .values({ userId: user!.id, factorType: 'totp', status: 'verified', secret: 'sealed' })
      .returning();
    const challenge = (ip: string, expiresAt: Date, verifiedAt: Date | null = null) => ({
      factorId: factor!.id,
      ip,
      expiresAt,
      verifiedAt,
    });
    await database.db
      .insert(schema.mfaChallenges)
      .values([
        challenge('expired', new Date('2030-03-02T11:59:59Z')),
        challenge('answered', new Date('2030-03-02T11:58:00Z'), new Date('2030-03-02T11:54:00Z')),
        challenge('now', now),
        challenge('live', new Date('2030-03-02T12:00:01Z')),
      ]);

    await createPruneMfaChallengesJob(database.db, () => now).handle({});

    // A challenge is answered until its expiry, inclusive (expires_at >= now), so one expiring now stays.
    const left = await database.db.select({ ip: schema.mfaChallenges.ip }).from(schema.mfaChallenges);
    expect(left.map((row) => row.ip).sort()).toEqual(['live', 'now']);
  });
});
