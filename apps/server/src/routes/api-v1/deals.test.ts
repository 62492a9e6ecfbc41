import { type Database, schema } from '@covenant/db';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';
import { type DealParties, startDealParties } from '../../testing/start-deal-parties.js';

let parties: DealParties;
let database: Database;
let app: FastifyInstance;
let buyer: TestTrader;
let seller: TestTrader;
let outsider: TestTrader;

beforeAll(async () => {
  parties = await startDealParties();
  ({ database, app, buyer, seller, outsider } = parties);
});
afterAll(async () => {
  await parties?.close();
});

/** 0.5 WBTC against 30,000 USDC, both on Ethereum. */
const newDeal = (counterpartyId: string) => ({
  asset_chain: 'ETH',
  asset_symbol: 'WBTC',
  asset_amount: '50000000',
  stable_chain: 'ETH',
  stable_symbol: 'USDC',
  stable_amount: '30000000000',
  counterparty_id: counterpartyId,
});

function call(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  token: string | null,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method,
    url,
    payload: payload as Record<string, unknown> | undefined,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

describe('POST /api/v1/deals', () => {
  it('creates a draft deal with the caller as buyer, and both parties see it', async () => {
    const response = await call('POST', '/api/v1/deals', buyer.token, {
      ...newDeal(seller.id),
      meeting_required: true,
      travel_location: 'Zurich',
    });
    expect(response.statusCode).toBe(201);
    const deal = response.json();
    expect(deal).toMatchObject({
      buyer_id: buyer.id,
      seller_id: seller.id,
      counterparty_id: seller.id,
      buyer: { id: buyer.id, username: buyer.username, trading_tier: 'enhanced' },
      seller: { id: seller.id, username: seller.username, trading_tier: 'enhanced' },
      asset_amount: '50000000',
      stable_amount: '30000000000',
      meeting_required: true,
      travel_location: 'Zurich',
      status: 'draft',
      completed_at: null,
      terms_version: 1,
      terms_proposed_by: buyer.id,
      funding_deadline_hours: 24,
      accepted_terms_version: null,
      terms_hash: null,
      terms_agreed_at: null,
      addresses: { buyer: null, seller: null },
    });
    const seen = await call('GET', `/api/v1/deals/${deal.id}`, seller.token);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({
      id: deal.id,
      counterparty_id: buyer.id,
      history: [{ seq: 1, action: 'created', actor_id: buyer.id }],
    });
    const listed = await call('GET', '/api/v1/deals', seller.token);
    const { counterparty_id: _buyerView, ...sameForBoth } = deal;
    expect(listed.json().data.find((d: { id: string }) => d.id === deal.id)).toEqual({
      ...sameForBoth,
      counterparty_id: buyer.id,
    });
  });

  it('keeps 30-digit amounts exact in storage and on the wire', async () => {
    // 123456789012345678901234 wei = 123456.789012345678901234 ETH, under the 1,000,000 maximum
    const response = await call('POST', '/api/v1/deals', buyer.token, {
      ...newDeal(seller.id),
      asset_chain: 'ETH',
      asset_symbol: 'ETH',
      asset_amount: '123456789012345678901234',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().asset_amount).toBe('123456789012345678901234');
  });

  it.each([
    ['exponent notation', { asset_amount: '5e7' }, 'Asset amount must be a positive number.'],
    ['a negative amount', { asset_amount: '-50000000' }, 'Asset amount must be a positive number.'],
    ['a decimal point', { asset_amount: '0.00000001' }, 'Asset amount must be a positive number.'],
    ['zero', { stable_amount: '0' }, 'Stable amount must be a positive number.'],
    // 1000000.00000001 BTC = 100000000000001 satoshi
    [
      'one satoshi over 1,000,000 BTC',
      { asset_amount: '100000000000001' },
      'Trade amounts exceed maximum limits.',
    ],
    [
      'a 30-digit amount',
      { asset_amount: '123456789012345678901234567890' },
      'Trade amounts exceed maximum limits.',
    ],
  ])('refuses %s with VALIDATION_FAILED', async (_name, change, message) => {
    const response = await call('POST', '/api/v1/deals', buyer.token, { ...newDeal(seller.id), ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });

  it('allows exactly 1,000,000 on a side (institutional limits permitting)', async () => {
    const whale = await createTestTrader(app, { tradingTier: 'institutional', tierLimitUsd: '5000000' });
    const otherWhale = await createTestTrader(app, { tradingTier: 'institutional', tierLimitUsd: '5000000' });
    const response = await call('POST', '/api/v1/deals', whale.token, {
      ...newDeal(otherWhale.id),
      asset_amount: '100000000000000', // 1000000 WBTC = 10^6 × 10^8 base units
      stable_amount: '1000000000000', // 1000000 USDC = 10^6 × 10^6
    });
    expect(response.statusCode).toBe(201);
  });

  it('refuses a Bitcoin leg below the smallest payable deposit with 422 naming the minimum', async () => {
    const btc = { asset_chain: 'BTC', asset_symbol: 'BTC' };
    // 1,000 satoshi: a payout of it would cost more in fees than it holds; 10,000 (0.0001 BTC) is the floor.
    const dust = await call('POST', '/api/v1/deals', buyer.token, {
      ...newDeal(seller.id),
      ...btc,
      asset_amount: '1000',
    });
    expect(dust.statusCode, dust.body).toBe(422);
    expect(dust.json().error).toMatchObject({
      code: 'AMOUNT_BELOW_MINIMUM',
      message: 'Asset amount must be at least 0.0001 BTC.',
      details: { fields: { asset_amount: 'must be at least 0.0001 BTC' }, symbol: 'BTC', minimum: '10000' },
    });
    const floor = await call('POST', '/api/v1/deals', buyer.token, {
      ...newDeal(seller.id),
      ...btc,
      asset_amount: '10000',
    });
    expect(floor.statusCode, floor.body).toBe(201);
    // A later version of the terms is held to the same floor.
    const counter = await call('PUT', `/api/v1/deals/${floor.json().id}/terms`, seller.token, {
      asset_amount: '9999',
    });
    expect(counter.statusCode, counter.body).toBe(422);
    expect(counter.json().error.code).toBe('AMOUNT_BELOW_MINIMUM');
  });

  it('refuses symbols that do not live on their chain', async () => {
    const response = await call('POST', '/api/v1/deals', buyer.token, {
      ...newDeal(seller.id),
      asset_symbol: 'SOL',
      stable_symbol: 'WBTC',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.fields).toEqual({
      asset_symbol: 'SOL is not a token on ETH',
      stable_symbol: 'WBTC is not a stablecoin on ETH',
    });
  });

  it.each([
    ['a Solana asset leg', { asset_chain: 'SOL', asset_symbol: 'SOL', asset_amount: '2500000000000' }, 'SOL'],
    ['a Solana stable leg', { stable_chain: 'SOL', stable_symbol: 'USDT' }, 'SOL'],
  ])('accepts %s: Solana escrow runs', async (_name, change, chain) => {
    const response = await call('POST', '/api/v1/deals', buyer.token, { ...newDeal(seller.id), ...change });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json();
    expect([created.asset_chain, created.stable_chain]).toContain(chain);
  });

  it('refuses a counterparty that is the caller, unverified, without KYC or unknown', async () => {
    const unverified = await createTestTrader(app, { verificationStatus: 'pending', kycCompleted: false });
    for (const counterpartyId of [buyer.id, unverified.id, '00000000-0000-4000-8000-000000000000']) {
      const response = await call('POST', '/api/v1/deals', buyer.token, newDeal(counterpartyId));
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details.fields).toHaveProperty('counterparty_id');
    }
  });

  it('refuses a trader without KYC with 403 KYC_REQUIRED', async () => {
    const newcomer = await createTestTrader(app, { verificationStatus: 'unverified', kycCompleted: false });
    const response = await call('POST', '/api/v1/deals', newcomer.token, newDeal(seller.id));
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({
      code: 'KYC_REQUIRED',
      message: 'Please complete KYC verification before trading.',
    });
  });

  it('enforces the tier limit on the stable leg with 422 TIER_LIMIT_EXCEEDED', async () => {
    const basic = await createTestTrader(app, { tradingTier: 'basic' });
    const atLimit = await call('POST', '/api/v1/deals', basic.token, {
      ...newDeal(seller.id),
      stable_amount: '10000000000', // $10,000.00 exactly
    });
    expect(atLimit.statusCode).toBe(201);
    const over = await call('POST', '/api/v1/deals', basic.token, {
      ...newDeal(seller.id),
      stable_amount: '10000000001', // $10,000.000001
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().error).toMatchObject({
      code: 'TIER_LIMIT_EXCEEDED',
      message: 'This trade exceeds your Basic tier limit of $10,000 per transaction.',
      details: { tier: 'basic', limit_usd: '10000', value_usd: '10000.000001' },
    });
  });

  it('holds the deal to the counterparty’s tier limit too, without naming it', async () => {
    // An Enhanced buyer ($100,000) naming a Basic seller ($10,000) for $50,000 = 50000 × 10^6 USDC.
    const basicSeller = await createTestTrader(app, { tradingTier: 'basic' });
    const over = await call('POST', '/api/v1/deals', buyer.token, {
      ...newDeal(basicSeller.id),
      stable_amount: '50000000000',
    });
    expect(over.statusCode, over.body).toBe(422);
    expect(over.json().error).toMatchObject({
      code: 'TIER_LIMIT_EXCEEDED',
      message: 'This trade exceeds your counterparty’s tier limit per transaction.',
      details: { party: 'counterparty', value_usd: '50000' },
    });
    expect(over.json().error.details).not.toHaveProperty('tier');
    expect(over.json().error.details).not.toHaveProperty('limit_usd');
    const atLimit = await call('POST', '/api/v1/deals', buyer.token, {
      ...newDeal(basicSeller.id),
      stable_amount: '10000000000', // $10,000.00 exactly
    });
    expect(atLimit.statusCode, atLimit.body).toBe(201);
  });

  it('refuses malformed bodies with field details', async () => {
    const response = await call('POST', '/api/v1/deals', buyer.token, { asset_chain: 'DOGE' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
  });
});

describe('GET /api/v1/deals', () => {
  it('pages newest first with starting_after and filters by status', async () => {
    const trader = await createTestTrader(app);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await call('POST', '/api/v1/deals', trader.token, newDeal(seller.id));
      ids.unshift(response.json().id);
    }
    const first = (await call('GET', '/api/v1/deals?limit=2', trader.token)).json();
    expect(first.data.map((d: { id: string }) => d.id)).toEqual(ids.slice(0, 2));
    expect(first.has_more).toBe(true);
    const second = (await call('GET', `/api/v1/deals?limit=2&starting_after=${ids[1]}`, trader.token)).json();
    expect(second.data.map((d: { id: string }) => d.id)).toEqual(ids.slice(2, 4));
    const last = (await call('GET', `/api/v1/deals?limit=2&starting_after=${ids[3]}`, trader.token)).json();
    expect(last).toMatchObject({ has_more: false });
    expect(last.data.map((d: { id: string }) => d.id)).toEqual([ids[4]]);

    await database.db.update(schema.deals).set({ status: 'cancelled' }).where(eq(schema.deals.id, ids[2]!));
    const cancelled = (await call('GET', '/api/v1/deals?status=cancelled', trader.token)).json();
    expect(cancelled.data.map((d: { id: string }) => d.id)).toEqual([ids[2]]);
  });

  it('merges the deals a trader buys and sells into one newest-first order, page after page', async () => {
    const trader = await createTestTrader(app);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      // Even: the trader proposes and buys; odd: the seller proposes to the trader, who sells.
      const response =
        i % 2 === 0
          ? await call('POST', '/api/v1/deals', trader.token, newDeal(seller.id))
          : await call('POST', '/api/v1/deals', seller.token, newDeal(trader.id));
      expect(response.statusCode).toBe(201);
      ids.unshift(response.json().id);
    }
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 4; page++) {
      const query = after ? `limit=2&starting_after=${after}` : 'limit=2';
      const body = (await call('GET', `/api/v1/deals?${query}`, trader.token)).json();
      seen.push(...body.data.map((d: { id: string }) => d.id));
      expect(body.has_more).toBe(page < 3);
      after = seen.at(-1);
    }
    expect(seen).toEqual(ids);
    await database.db
      .update(schema.deals)
      .set({ status: 'cancelled' })
      .where(inArray(schema.deals.id, [ids[1]!, ids[4]!]));
    const cancelled = (await call('GET', '/api/v1/deals?status=cancelled&limit=1', trader.token)).json();
    expect(cancelled.data.map((d: { id: string }) => d.id)).toEqual([ids[1]]);
    const next = (
      await call('GET', `/api/v1/deals?status=cancelled&limit=1&starting_after=${ids[1]}`, trader.token)
    ).json();
    expect(next).toMatchObject({ has_more: false });
    expect(next.data.map((d: { id: string }) => d.id)).toEqual([ids[4]]);
  });

  it('refuses a cursor that is not one of the caller’s deals', async () => {
    const mine = (await call('POST', '/api/v1/deals', buyer.token, newDeal(seller.id))).json();
    const response = await call('GET', `/api/v1/deals?starting_after=${mine.id}`, outsider.token);
    expect(response.statusCode).toBe(400);
  });
});

describe('PUT /api/v1/deals/:id/terms', () => {
  it('changes terms before funding, checks them like a new trade and records the change', async () => {
    const deal = (await call('POST', '/api/v1/deals', buyer.token, newDeal(seller.id))).json();
    const changed = await call('PUT', `/api/v1/deals/${deal.id}/terms`, seller.token, {
      stable_amount: '31000000000',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ stable_amount: '31000000000', asset_amount: '50000000' });
    const history = (await call('GET', `/api/v1/deals/${deal.id}`, buyer.token)).json().history;
    expect(history).toEqual([
      expect.objectContaining({ seq: 1, action: 'created' }),
      expect.objectContaining({
        seq: 2,
        action: 'terms_proposed',
        actor_id: seller.id,
        details: {
          version: 2,
          terms: {
            asset_chain: 'ETH',
            asset_symbol: 'WBTC',
            asset_amount: '50000000',
            stable_chain: 'ETH',
            stable_symbol: 'USDC',
            stable_amount: '31000000000',
            meeting_required: false,
            travel_location: null,
            funding_deadline_hours: 24,
          },
          changes: { stable_amount: { from: '30000000000', to: '31000000000' } },
        },
      }),
    ]);
    const invalid = await call('PUT', `/api/v1/deals/${deal.id}/terms`, buyer.token, { asset_symbol: 'SOL' });
    expect(invalid.statusCode).toBe(400);
  });

  it('answers 409 DEAL_NOT_ACTIVE once escrow is funded', async () => {
    const deal = (await call('POST', '/api/v1/deals', buyer.token, newDeal(seller.id))).json();
    await database.db
      .update(schema.deals)
      .set({ status: 'escrow_funded' })
      .where(eq(schema.deals.id, deal.id));
    const response = await call('PUT', `/api/v1/deals/${deal.id}/terms`, buyer.token, { asset_amount: '1' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('DEAL_NOT_ACTIVE');
  });
});

describe('authorization', () => {
  it('hides a deal from anybody but its parties (404, never 403)', async () => {
    const deal = (await call('POST', '/api/v1/deals', buyer.token, newDeal(seller.id))).json();
    const read = await call('GET', `/api/v1/deals/${deal.id}`, outsider.token);
    expect(read.statusCode).toBe(404);
    expect(read.json().error.code).toBe('NOT_FOUND');
    const change = await call('PUT', `/api/v1/deals/${deal.id}/terms`, outsider.token, { asset_amount: '1' });
    expect(change.statusCode).toBe(404);
    const list = (await call('GET', '/api/v1/deals', outsider.token)).json();
    expect(list.data.map((d: { id: string }) => d.id)).not.toContain(deal.id);
    const [stored] = await database.db.select().from(schema.deals).where(eq(schema.deals.id, deal.id));
    expect(stored!.assetAmount).toBe('50000000');
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, and refuses another body', async () => {
    const headers = { 'idempotency-key': `create-${Date.now()}` };
    const first = await call('POST', '/api/v1/deals', buyer.token, newDeal(seller.id), headers);
    const again = await call('POST', '/api/v1/deals', buyer.token, newDeal(seller.id), headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const count = await database.db.select().from(schema.deals).where(eq(schema.deals.id, first.json().id));
    expect(count).toHaveLength(1);

    const other = await call(
      'POST',
      '/api/v1/deals',
      buyer.token,
      { ...newDeal(seller.id), asset_amount: '1' },
      headers,
    );
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('keeps keys per user and replays refusals too', async () => {
    const key = { 'idempotency-key': `shared-${Date.now()}` };
    const refused = await call('POST', '/api/v1/deals', buyer.token, newDeal(buyer.id), key);
    expect(refused.statusCode).toBe(400);
    const replayed = await call('POST', '/api/v1/deals', buyer.token, newDeal(buyer.id), key);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    const someoneElse = await call('POST', '/api/v1/deals', seller.token, newDeal(buyer.id), key);
    expect(someoneElse.statusCode).toBe(201);
  });
});
