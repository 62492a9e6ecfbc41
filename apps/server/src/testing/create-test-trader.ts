import { randomUUID } from 'node:crypto';
import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../auth/hash-password.js';
import { issueAccessToken } from '../auth/issue-access-token.js';

export interface TestTrader {
  id: string;
  email: string;
  username: string;
  /** A Bearer access token of a fresh session. */
  token: string;
}

export interface TestTraderOverrides {
  username?: string;
  verificationStatus?: schema.VerificationStatus;
  tradingTier?: schema.TradingTier;
  kycCompleted?: boolean;
  tierLimitUsd?: string | null;
  apiTier?: schema.ApiAccessTier;
  /** Staff roles to grant; staff get an aal2 session (as after a TOTP code) unless `aal` says otherwise. */
  roles?: schema.UserRole[];
  aal?: 'aal1' | 'aal2';
  /** A password to sign in or reauthenticate with; without one the account has none. */
  password?: string;
  /**
   * The trader's approved KYC record (what the Travel Rule reads): an individual with an address, its
   * town, and a date and place of birth by default, changed field by field here; null for none. Written only for KYC-complete traders.
   */
  kyc?: Partial<typeof schema.kycSubmissions.$inferInsert> | null;
}

/**
 * A confirmed user (a trader, or staff with `roles`) with a profile (verified, KYC complete, Enhanced unless told otherwise), its
 * approved KYC record, and a signed-in session, written straight into the app's database: faster than signing up through the API.
 */
export async function createTestTrader(
  app: FastifyInstance,
  overrides: TestTraderOverrides = {},
): Promise<TestTrader> {
  const db = app.database.db;
  const username = overrides.username ?? `trader_${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.com`;
  const now = app.clock();
  const passwordHash = overrides.password ? await hashPassword(overrides.password) : undefined;
  const [user] = await db
    .insert(schema.users)
    .values({ email, emailConfirmedAt: now, ...(passwordHash ? { passwordHash } : {}) })
    .returning();
  await db.insert(schema.profiles).values({
    id: user!.id,
    username,
    verificationStatus: overrides.verificationStatus ?? 'verified',
    tradingTier: overrides.tradingTier ?? 'enhanced',
    kycCompleted: overrides.kycCompleted ?? true,
    tierLimitUsd: overrides.tierLimitUsd ?? null,
  });
  if ((overrides.kycCompleted ?? true) && overrides.kyc !== null) {
    const tier = overrides.tradingTier ?? 'enhanced';
    await db.insert(schema.kycSubmissions).values({
      userId: user!.id,
      status: 'approved',
      subjectType: 'individual',
      legalName: `Test Trader ${username}`,
      country: 'CH',
      dateOfBirth: '1985-04-12',
      placeOfBirthCity: 'Basel',
      placeOfBirthCountry: 'CH',
      address: 'Bahnhofstrasse 1\n8001 Zürich',
      townName: 'Zürich',
      requestedTier: tier,
      approvedTier: tier,
      limitUsd: overrides.tierLimitUsd ?? (tier === 'basic' ? '10000' : '100000'),
      submittedAt: now,
      reviewedAt: now,
      ...overrides.kyc,
    });
  }
  if (overrides.apiTier) {
    await db.insert(schema.apiAccessTiers).values({ userId: user!.id, tier: overrides.apiTier });
  }
  const roles = overrides.roles ?? [];
  if (roles.length > 0) {
    await db.insert(schema.userRoles).values(roles.map((role) => ({ userId: user!.id, role })));
  }
  const aal = overrides.aal ?? (roles.length > 0 ? 'aal2' : 'aal1');
  const seconds = Math.floor(now.getTime() / 1000);
  const amr: schema.AuthMethodReference[] = [{ method: 'password', timestamp: seconds }];
  if (aal === 'aal2') amr.unshift({ method: 'totp', timestamp: seconds });
  const [session] = await db.insert(schema.sessions).values({ userId: user!.id, amr, aal }).returning();
  const { accessToken } = await issueAccessToken(
    { signingKey: app.signingKey, config: app.config, now: app.clock },
    { user: user!, factors: [], roles, identities: [] },
    session!,
  );
  return { id: user!.id, email, username, token: accessToken };
}

/** A new signed-in session for a trader made by createTestTrader, as of the app's clock now (after a test moved it). */
export async function signInAgain(app: FastifyInstance, trader: TestTrader): Promise<string> {
  const db = app.database.db;
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, trader.id));
  const seconds = Math.floor(app.clock().getTime() / 1000);
  const amr: schema.AuthMethodReference[] = [{ method: 'password', timestamp: seconds }];
  const [session] = await db
    .insert(schema.sessions)
    .values({ userId: trader.id, amr, aal: 'aal1' })
    .returning();
  const { accessToken } = await issueAccessToken(
    { signingKey: app.signingKey, config: app.config, now: app.clock },
    { user: user!, factors: [], roles: [], identities: [] },
    session!,
  );
  return accessToken;
}
