import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword, seedDemoData } from '../../seed/seed-demo-data.js';
import { type AuthTestServer, startAuthTestServer } from '../auth-v1/start-auth-test-server.js';

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer({ env: { AUTH_REQUIRE_EMAIL_CONFIRMATION: 'false' } });
  await seedDemoData(server.database.db, server.now);
});
afterAll(() => server?.close());

async function get(path: string, token?: string) {
  const response = await fetch(`${server.origin}/api/v1${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields it expects and asserts on them
  const body: any = await response.json();
  return { status: response.status, body };
}

async function signIn(email: string): Promise<string> {
  const { data, error } = await server.createClient().signInWithPassword({ email, password: demoPassword });
  expect(error).toBeNull();
  return data.session!.access_token;
}

/** A new trader signed up with a username; returns the id and a token. */
async function signUp(username: string): Promise<{ id: string; token: string }> {
  const { data, error } = await server.createClient().signUp({
    email: `${username.toLowerCase()}.${Math.random().toString(36).slice(2, 8)}@example.com`,
    password: 'correct horse battery',
    options: { data: { username, first_name: 'Tess', last_name: 'Trader' } },
  });
  expect(error).toBeNull();
  return { id: data.user!.id, token: data.session!.access_token };
}

async function setProfile(id: string, values: Partial<typeof schema.profiles.$inferInsert>) {
  await server.database.db.update(schema.profiles).set(values).where(eq(schema.profiles.id, id));
}

describe('GET /api/v1/user/profile', () => {
  it("answers the caller's profile with the limit of the tier", async () => {
    const { status, body } = await get('/user/profile', await signIn('buyer@demo.covenant.test'));
    expect(status).toBe(200);
    expect(body).toEqual({
      id: expect.any(String),
      email: 'buyer@demo.covenant.test',
      username: 'demo_buyer',
      first_name: 'Bea',
      last_name: 'Buyer',
      verification_status: 'verified',
      trading_tier: 'enhanced',
      kyc_completed: true,
      tier_limit_usd: '100000',
      roles: [],
      matching_opt_out: false,
    });
  });

  it('has no limit before KYC, the basic limit after, and the custom one for institutional', async () => {
    const trader = await signUp('LimitTester');
    const before = await get('/user/profile', trader.token);
    expect(before.body).toMatchObject({
      username: 'LimitTester',
      verification_status: 'unverified',
      trading_tier: 'basic',
      kyc_completed: false,
      tier_limit_usd: null,
    });

    await setProfile(trader.id, { verificationStatus: 'verified', kycCompleted: true });
    expect((await get('/user/profile', trader.token)).body.tier_limit_usd).toBe('10000');

    await setProfile(trader.id, { tradingTier: 'institutional', tierLimitUsd: '2500000' });
    expect((await get('/user/profile', trader.token)).body).toMatchObject({
      trading_tier: 'institutional',
      tier_limit_usd: '2500000',
    });
  });

  it('lists staff roles', async () => {
    const { body } = await get('/user/profile', await signIn('admin@demo.covenant.test'));
    expect(body.roles).toEqual(['admin', 'compliance']);
  });

  it('refuses a missing or bad token with 401 in the error shape', async () => {
    for (const token of [undefined, 'not-a-token']) {
      const { status, body } = await get('/user/profile', token);
      expect(status).toBe(401);
      expect(body.error).toMatchObject({ code: 'UNAUTHORIZED', timestamp: expect.any(String) });
    }
  });
});

describe('GET /api/v1/partners', () => {
  it('lists only verified, KYC-complete traders other than the caller', async () => {
    const caller = await signUp('PartnerSeeker');
    const pending = await signUp('PendingPartner');
    await setProfile(pending.id, { verificationStatus: 'pending' });
    const verifiedWithoutKyc = await signUp('HalfwayPartner');
    await setProfile(verifiedWithoutKyc.id, { verificationStatus: 'verified', kycCompleted: false });

    const { status, body } = await get('/partners', caller.token);
    expect(status).toBe(200);
    const usernames = body.data.map((partner: { username: string }) => partner.username);
    expect(usernames).toEqual(expect.arrayContaining(['demo_buyer', 'demo_seller']));
    for (const excluded of [
      'PartnerSeeker',
      'PendingPartner',
      'HalfwayPartner',
      'demo_unverified',
      'demo_admin',
    ]) {
      expect(usernames).not.toContain(excluded);
    }
    expect(
      body.data.every(
        (partner: { verification_status: string; kyc_completed: boolean }) =>
          partner.verification_status === 'verified' && partner.kyc_completed,
      ),
    ).toBe(true);
    expect(body.data[0]).toEqual({
      id: expect.any(String),
      username: 'demo_buyer',
      verification_status: 'verified',
      trading_tier: 'enhanced',
      kyc_completed: true,
    });

    const asBuyer = await get('/partners', await signIn('buyer@demo.covenant.test'));
    const seenByBuyer = asBuyer.body.data.map((partner: { username: string }) => partner.username);
    expect(seenByBuyer).toContain('demo_seller');
    expect(seenByBuyer).not.toContain('demo_buyer');
  });

  it('searches usernames case-insensitively by any part, with wildcards taken literally', async () => {
    const caller = await signUp('Searcher');
    const { token } = caller;
    const names = async (search: string) =>
      (await get(`/partners?search=${encodeURIComponent(search)}`, token)).body.data.map(
        (partner: { username: string }) => partner.username,
      );
    expect(await names('SELL')).toEqual(['demo_seller']);
    expect(await names('demo')).toEqual(['demo_buyer', 'demo_seller']);
    expect(await names('DEMO_')).toEqual(['demo_buyer', 'demo_seller']);
    expect(await names('o_b')).toEqual(['demo_buyer']);
    // As wildcards these would match "mo_b" and everything.
    expect(await names('m__b')).toEqual([]);
    expect(await names('%')).toEqual([]);
    expect(await names('nobody')).toEqual([]);
    expect((await get('/partners?limit=1', token)).body.data).toHaveLength(1);
    expect((await get('/partners?limit=0', token)).status).toBe(400);
  });

  it('refuses a caller without a token', async () => {
    expect((await get('/partners')).status).toBe(401);
  });
});
