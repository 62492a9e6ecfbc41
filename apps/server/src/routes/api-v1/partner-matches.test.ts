import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import {
  createTestTrader,
  type TestTrader,
  type TestTraderOverrides,
} from '../../testing/create-test-trader.js';

// GET /api/v1/partners/matches and the opt-out on the profile, against a real database (PGlite, or
// PostgreSQL with TEST_DB=postgres): who is a candidate, the order, and that no sheet leaks.

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database, env: { MATCHING_DENIED_JURISDICTIONS: 'KP,CH-RU' } });
  app = testApp.app;
});

afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

async function call(method: 'GET' | 'PATCH' | 'POST', url: string, token: string, payload?: object) {
  const response = await app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields it expects and asserts on them
  return { status: response.statusCode, body: response.json() as any, text: response.body };
}

/** The caller's sheet: ETH and BTC against USDC and USDT on Ethereum, $50k–$250k, 24 h, Switzerland. */
const callerSheet = {
  legal_name: 'Caller Capital AG',
  entity_type: 'company',
  jurisdiction: 'CH',
  source_of_funds: 'Retained earnings of the caller',
  assets: ['BTC', 'ETH', 'USDC', 'USDT'],
  size_min_usd: 50_000,
  size_max_usd: 250_000,
  preferred_chains: ['BTC', 'ETH'],
  settlement_window_hours: 24,
};

async function storeSheet(trader: TestTrader, sheet: Partial<typeof callerSheet>) {
  const response = await call('POST', '/cis', trader.token, { ...callerSheet, ...sheet });
  expect(response.status, response.text).toBe(201);
}

async function traderWithSheet(
  username: string,
  sheet: Partial<typeof callerSheet>,
  overrides: TestTraderOverrides = {},
): Promise<TestTrader> {
  const trader = await createTestTrader(app, { username, ...overrides });
  await storeSheet(trader, {
    legal_name: `${username} Holdings Ltd`,
    source_of_funds: `${username} private funds`,
    ...sheet,
  });
  return trader;
}

/** A finished deal between two traders, written directly: the matching only counts them. */
async function completedDeal(buyer: TestTrader, seller: TestTrader) {
  const [deal] = await database.db
    .insert(schema.deals)
    .values({
      buyerId: buyer.id,
      sellerId: seller.id,
      assetChain: 'ETH',
      assetSymbol: 'WBTC',
      assetAmount: '100000000',
      stableChain: 'ETH',
      stableSymbol: 'USDC',
      stableAmount: '60000000000',
      status: 'completed',
    })
    .returning();
  return deal!;
}

describe('GET /api/v1/partners/matches', () => {
  let caller: TestTrader;
  let alpha: TestTrader;
  let bravo: TestTrader;
  let optedOut: TestTrader;

  beforeAll(async () => {
    caller = await createTestTrader(app, {
      username: 'match_caller',
      tradingTier: 'institutional',
      tierLimitUsd: '1000000',
    });
    await storeSheet(caller, {});
    // alpha: BTC/USDC only, the same sizes and window, 2 completed deals, none disputed.
    alpha = await traderWithSheet(
      'match_alpha',
      { jurisdiction: 'DE', assets: ['BTC', 'USDC'] },
      { tradingTier: 'institutional', tierLimitUsd: '1000000' },
    );
    // bravo: every pair, but Enhanced ($100,000): the sizes meet at $100k only; 48 h; 1 deal it was
    // disputed on by its counterparty.
    bravo = await traderWithSheet('match_bravo', {
      jurisdiction: 'US',
      size_min_usd: 100_000,
      size_max_usd: 1_000_000,
      settlement_window_hours: 48,
    });
    const counterparty = await createTestTrader(app, { username: 'match_history' });
    await completedDeal(alpha, counterparty);
    await completedDeal(counterparty, alpha);
    const disputed = await completedDeal(counterparty, bravo);
    await database.db.insert(schema.dealDisputes).values({
      dealId: disputed.id,
      openedBy: counterparty.id,
      reason: 'The seller delivered late',
      statusBefore: 'escrow_funded',
    });
    // Excluded: opted out; unverified with a sheet; KYC incomplete with a sheet; no sheet; a denied
    // country; a denied pair of countries; no pair in common; a Basic limit below $50,000; a newer
    // sheet that no longer fits (the newest sheet counts).
    optedOut = await traderWithSheet('match_optedout', {});
    await call('PATCH', '/user/profile', optedOut.token, { matching_opt_out: true });
    await traderWithSheet('match_unverified', {}, { verificationStatus: 'pending', kycCompleted: false });
    await traderWithSheet('match_nokyc', {}, { kycCompleted: false });
    await createTestTrader(app, { username: 'match_nosheet' });
    await traderWithSheet('match_korea', { jurisdiction: 'KP' });
    await traderWithSheet('match_russia', { jurisdiction: 'RU' });
    await traderWithSheet('match_solana', { assets: ['SOL', 'USDC'], preferred_chains: ['SOL'] });
    await traderWithSheet('match_basic', {}, { tradingTier: 'basic' });
    const changed = await traderWithSheet('match_changed', {});
    await storeSheet(changed, { assets: ['SOL', 'USDT'], preferred_chains: ['SOL'] });
  });

  it('ranks the fitting verified traders with their reasons, leaving the others out', async () => {
    const { status, body } = await call('GET', '/partners/matches', caller.token);
    expect(status).toBe(200);
    expect(body.status).toBe('ready');
    expect(body.message).toBeNull();
    // bravo: 35 + 0 + ⌊15·24/48⌋ = 7 + 1 + ⌊10·1/2⌋ = 5 → 48; alpha: ⌊35/4⌋ = 8 + 30 + 15 + 2 + 10 → 65.
    expect(body.data).toEqual([
      {
        id: alpha.id,
        username: 'match_alpha',
        verification_status: 'verified',
        trading_tier: 'institutional',
        kyc_completed: true,
        score: 65,
        reasons: [
          'both trade BTC against USDC on Ethereum',
          'sizes overlap $50k–$250k',
          'settles within 24 h',
          '2 completed deals on Covenant',
          'no disputes raised against them',
        ],
      },
      {
        id: bravo.id,
        username: 'match_bravo',
        verification_status: 'verified',
        trading_tier: 'enhanced',
        kyc_completed: true,
        score: 48,
        reasons: [
          'both trade ETH against USDC on Ethereum, ETH against USDT on Ethereum and 2 more pairs',
          'sizes meet at $100k within the tier limits',
          'settles within 48 h',
          '1 completed deal on Covenant',
          '1 dispute raised against them',
        ],
      },
    ]);
    expect((await call('GET', '/partners/matches?limit=1', caller.token)).body.data).toHaveLength(1);
  });

  it('shows nothing of the other party’s sheet', async () => {
    const { text } = await call('GET', '/partners/matches', caller.token);
    for (const secret of [
      'Holdings',
      'private funds',
      '"DE"',
      '"US"',
      'size_min_usd',
      'jurisdiction',
      'legal_name',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('suggests a trader again once they opt back in, and the profile says which', async () => {
    const ids = async () =>
      (await call('GET', '/partners/matches', caller.token)).body.data.map(
        (match: { id: string }) => match.id,
      );
    expect(await ids()).not.toContain(optedOut.id);
    expect((await call('GET', '/user/profile', optedOut.token)).body.matching_opt_out).toBe(true);
    const optIn = await call('PATCH', '/user/profile', optedOut.token, { matching_opt_out: false });
    expect(optIn.status).toBe(200);
    expect(optIn.body).toMatchObject({ id: optedOut.id, matching_opt_out: false });
    expect(await ids()).toContain(optedOut.id);
    await call('PATCH', '/user/profile', optedOut.token, { matching_opt_out: true });
    expect(await ids()).not.toContain(optedOut.id);
  });

  it('says why a caller without KYC, without a sheet or in a denied country gets no suggestions', async () => {
    const unverified = await traderWithSheet(
      'match_caller_unverified',
      {},
      { verificationStatus: 'pending', kycCompleted: false },
    );
    expect((await call('GET', '/partners/matches', unverified.token)).body).toEqual({
      status: 'kyc_required',
      message: 'Complete KYC verification to see suggested counterparties.',
      data: [],
    });
    const sheetless = await createTestTrader(app, { username: 'match_caller_sheetless' });
    expect((await call('GET', '/partners/matches', sheetless.token)).body).toEqual({
      status: 'cis_required',
      message:
        'Store a Customer Information Sheet to see suggested counterparties: they are matched against it.',
      data: [],
    });
    const denied = await traderWithSheet('match_caller_korea', { jurisdiction: 'KP' });
    expect((await call('GET', '/partners/matches', denied.token)).body).toMatchObject({
      status: 'jurisdiction_denied',
      data: [],
    });
  });

  it('refuses a bad limit and a caller without a token', async () => {
    expect((await call('GET', '/partners/matches?limit=0', caller.token)).status).toBe(400);
    expect((await call('GET', '/partners/matches?limit=51', caller.token)).status).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/v1/partners/matches' })).statusCode).toBe(401);
  });
});

describe('PATCH /api/v1/user/profile', () => {
  it('refuses what is not a setting, and an API key', async () => {
    const trader = await createTestTrader(app);
    for (const payload of [
      { matching_opt_out: 'yes' },
      { username: 'renamed' },
      { matching_opt_out: null },
    ]) {
      const response = await call('PATCH', '/user/profile', trader.token, payload);
      expect(response.status, JSON.stringify(payload)).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await call('GET', '/user/profile', trader.token)).body.matching_opt_out).toBe(false);
    // An empty body changes nothing and answers the profile.
    expect((await call('PATCH', '/user/profile', trader.token, {})).body.matching_opt_out).toBe(false);
    const key = await call('POST', '/api-keys', trader.token, {
      name: 'matching',
      scopes: ['read', 'trade'],
    });
    expect(key.status, key.text).toBe(201);
    const byKey = await call('PATCH', '/user/profile', key.body.key, { matching_opt_out: true });
    expect(byKey.status).toBe(403);
  });
});
