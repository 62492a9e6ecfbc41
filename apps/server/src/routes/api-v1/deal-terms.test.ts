import { createHash } from 'node:crypto';
import { type Database, schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
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

function call(method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    payload: payload as Record<string, unknown> | undefined,
    headers: { authorization: `Bearer ${token}` },
  });
}

/** 0.5 WBTC against 30,000 USDC, both on Ethereum: every payout and refund address is an Ethereum one. */
const openingTerms = {
  asset_chain: 'ETH',
  asset_symbol: 'WBTC',
  asset_amount: '50000000',
  stable_chain: 'ETH',
  stable_symbol: 'USDC',
  stable_amount: '30000000000',
  meeting_required: false,
  travel_location: null,
};

// EIP-55 Ethereum addresses.
const buyerAddresses = {
  payout_address: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  refund_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
};
const sellerAddresses = {
  payout_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  refund_address: '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
};

async function newDeal(status: schema.DealStatus = 'cis_submitted'): Promise<string> {
  const response = await call('POST', '/api/v1/deals', buyer.token, {
    ...openingTerms,
    counterparty_id: seller.id,
  });
  expect(response.statusCode, response.body).toBe(201);
  const dealId: string = response.json().id;
  // The CIS exchange that leads to cis_submitted is another use case; the status is set directly.
  await setStatus(dealId, status);
  return dealId;
}

const setStatus = (dealId: string, status: schema.DealStatus) =>
  database.db.update(schema.deals).set({ status }).where(eq(schema.deals.id, dealId));

async function setBothAddresses(dealId: string) {
  const fromBuyer = await call('PUT', `/api/v1/deals/${dealId}/addresses`, buyer.token, buyerAddresses);
  expect(fromBuyer.statusCode, fromBuyer.body).toBe(200);
  const fromSeller = await call('PUT', `/api/v1/deals/${dealId}/addresses`, seller.token, sellerAddresses);
  expect(fromSeller.statusCode, fromSeller.body).toBe(200);
}

const accept = (dealId: string, token: string, version: number) =>
  call('POST', `/api/v1/deals/${dealId}/terms/accept`, token, { version });

/** The terms hash as docs/audit-trail.md defines it, written independently of the server's code. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    return `{${Object.keys(object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(object[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('terms versions and acceptance', () => {
  it('goes from a counter-proposal to terms_agreed with a hash anybody can recompute', async () => {
    const dealId = await newDeal();
    await setBothAddresses(dealId);
    const counter = await call('PUT', `/api/v1/deals/${dealId}/terms`, seller.token, {
      stable_amount: '31000000000',
      funding_deadline_hours: 48,
    });
    expect(counter.statusCode, counter.body).toBe(200);
    expect(counter.json()).toMatchObject({
      version: 2,
      status: 'cis_submitted',
      terms_version: 2,
      terms_proposed_by: seller.id,
      funding_deadline_hours: 48,
      stable_amount: '31000000000',
      accepted_terms_version: null,
      terms_hash: null,
    });

    // The seller cannot accept its own proposal; the buyer cannot accept a superseded version.
    const own = await accept(dealId, seller.token, 2);
    expect(own.statusCode).toBe(409);
    expect(own.json().error).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      message: 'You cannot accept your own proposal',
      details: { reason: 'own_proposal' },
    });
    const stale = await accept(dealId, buyer.token, 1);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'CONFLICT', details: { latest_version: 2 } });

    const agreed = await accept(dealId, buyer.token, 2);
    expect(agreed.statusCode, agreed.body).toBe(200);
    const deal = agreed.json();
    expect(deal).toMatchObject({
      status: 'terms_agreed',
      terms_version: 2,
      accepted_terms_version: 2,
      addresses: { buyer: buyerAddresses, seller: sellerAddresses },
    });
    expect(Date.parse(deal.terms_agreed_at)).not.toBeNaN();
    const agreedTerms = { ...openingTerms, stable_amount: '31000000000', funding_deadline_hours: 48 };
    expect(deal.terms_hash).toBe(
      sha256(
        canonical({
          deal_id: dealId,
          version: 2,
          terms: agreedTerms,
          addresses: { buyer: buyerAddresses, seller: sellerAddresses },
        }),
      ),
    );

    const terms = await call('GET', `/api/v1/deals/${dealId}/terms`, seller.token);
    expect(terms.statusCode).toBe(200);
    expect(terms.json()).toMatchObject({
      versions: [
        { version: 1, proposed_by: buyer.id, terms: { ...openingTerms, funding_deadline_hours: 24 } },
        { version: 2, proposed_by: seller.id, terms: agreedTerms },
      ],
      accepted_version: 2,
      terms_hash: deal.terms_hash,
      bitcoin_network: 'regtest',
    });
    const seen = (await call('GET', `/api/v1/deals/${dealId}`, seller.token)).json();
    expect(seen).toMatchObject({ terms_hash: deal.terms_hash, accepted_terms_version: 2 });

    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json();
    expect(audit.verified).toBe(true);
    expect(audit.entries.map((entry: { action: string }) => entry.action)).toEqual([
      'created',
      'addresses_set',
      'addresses_set',
      'terms_proposed',
      'terms_accepted',
    ]);
    expect(audit.entries.at(-1)).toMatchObject({
      actor_id: buyer.id,
      payload: { version: 2, terms_hash: deal.terms_hash },
    });
  });

  it('lets the seller accept the buyer’s opening version 1', async () => {
    const dealId = await newDeal();
    await setBothAddresses(dealId);
    const agreed = await accept(dealId, seller.token, 1);
    expect(agreed.statusCode, agreed.body).toBe(200);
    expect(agreed.json()).toMatchObject({ status: 'terms_agreed', accepted_terms_version: 1 });
  });

  it('accepts only in cis_submitted', async () => {
    const draft = await newDeal('draft');
    await setBothAddresses(draft);
    const early = await accept(draft, seller.token, 1);
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { status: 'draft', action: 'accept_terms' },
    });
  });

  it('needs both parties’ addresses and names whose are missing', async () => {
    const dealId = await newDeal();
    const neither = await accept(dealId, seller.token, 1);
    expect(neither.statusCode).toBe(422);
    expect(neither.json().error).toMatchObject({
      code: 'ADDRESSES_REQUIRED',
      details: { missing: ['buyer', 'seller'] },
    });
    await call('PUT', `/api/v1/deals/${dealId}/addresses`, buyer.token, buyerAddresses);
    const sellerMissing = await accept(dealId, seller.token, 1);
    expect(sellerMissing.statusCode).toBe(422);
    expect(sellerMissing.json().error.details).toEqual({ missing: ['seller'], invalid: {} });
    const [stored] = await database.db.select().from(schema.deals).where(eq(schema.deals.id, dealId));
    expect(stored).toMatchObject({ status: 'cis_submitted', termsHash: null, acceptedTermsVersion: null });
  });

  it('takes a proposal that moves a leg to Solana as a new version of the terms', async () => {
    const dealId = await newDeal();
    const moved = await call('PUT', `/api/v1/deals/${dealId}/terms`, buyer.token, {
      stable_chain: 'SOL',
      stable_symbol: 'USDC',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const terms = (await call('GET', `/api/v1/deals/${dealId}/terms`, buyer.token)).json();
    expect(terms.versions).toHaveLength(2);
  });

  it('reopens the negotiation when terms or addresses change after agreement', async () => {
    const dealId = await newDeal();
    await setBothAddresses(dealId);
    expect((await accept(dealId, seller.token, 1)).statusCode).toBe(200);

    const changedAddresses = await call('PUT', `/api/v1/deals/${dealId}/addresses`, seller.token, {
      ...sellerAddresses,
      payout_address: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    });
    expect(changedAddresses.statusCode).toBe(200);
    expect(changedAddresses.json()).toMatchObject({
      status: 'cis_submitted',
      accepted_terms_version: null,
      terms_hash: null,
      terms_agreed_at: null,
    });

    expect((await accept(dealId, seller.token, 1)).statusCode).toBe(200);
    const proposed = await call('PUT', `/api/v1/deals/${dealId}/terms`, buyer.token, {
      meeting_required: true,
      travel_location: 'Zug',
    });
    expect(proposed.statusCode).toBe(200);
    expect(proposed.json()).toMatchObject({
      status: 'cis_submitted',
      terms_version: 2,
      accepted_terms_version: null,
      terms_hash: null,
      terms_agreed_at: null,
    });
  });

  it.each([
    [0, 'funding_deadline_hours'],
    [169, 'funding_deadline_hours'],
    [1.5, 'funding_deadline_hours'],
  ])('refuses a funding deadline of %s hours', async (hours) => {
    const dealId = await newDeal();
    const response = await call('PUT', `/api/v1/deals/${dealId}/terms`, buyer.token, {
      funding_deadline_hours: hours,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('accepts funding deadlines from 1 hour to 7 days', async () => {
    const dealId = await newDeal();
    for (const hours of [1, 168]) {
      const response = await call('PUT', `/api/v1/deals/${dealId}/terms`, buyer.token, {
        funding_deadline_hours: hours,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().funding_deadline_hours).toBe(hours);
    }
  });
});

describe('both parties’ KYC and tier limits', () => {
  /** A $5,000 deal (5000 × 10^6 USDC) in cis_submitted between the buyer and a new Basic seller. */
  async function dealWithBasicSeller(): Promise<{ dealId: string; basicSeller: TestTrader }> {
    const basicSeller = await createTestTrader(app, { tradingTier: 'basic' });
    const created = await call('POST', '/api/v1/deals', buyer.token, {
      ...openingTerms,
      stable_amount: '5000000000',
      counterparty_id: basicSeller.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const dealId: string = created.json().id;
    await setStatus(dealId, 'cis_submitted');
    await call('PUT', `/api/v1/deals/${dealId}/addresses`, buyer.token, buyerAddresses);
    await call('PUT', `/api/v1/deals/${dealId}/addresses`, basicSeller.token, sellerAddresses);
    return { dealId, basicSeller };
  }

  const setProfile = (userId: string, change: Partial<typeof schema.profiles.$inferInsert>) =>
    database.db.update(schema.profiles).set(change).where(eq(schema.profiles.id, userId));

  it('refuses a counter-proposal over the other party’s limit', async () => {
    const { dealId } = await dealWithBasicSeller();
    // The Enhanced buyer's own limit ($100,000) allows $50,000; the Basic seller's ($10,000) does not.
    const counter = await call('PUT', `/api/v1/deals/${dealId}/terms`, buyer.token, {
      stable_amount: '50000000000',
    });
    expect(counter.statusCode, counter.body).toBe(422);
    expect(counter.json().error).toMatchObject({
      code: 'TIER_LIMIT_EXCEEDED',
      message: 'This trade exceeds your counterparty’s tier limit per transaction.',
      details: { party: 'counterparty', value_usd: '50000' },
    });
    const [stored] = await database.db.select().from(schema.deals).where(eq(schema.deals.id, dealId));
    expect(stored).toMatchObject({ termsVersion: 1, stableAmount: '5000000000' });
  });

  it('refuses to accept terms over the acceptor’s limit, however they were proposed', async () => {
    const { dealId, basicSeller } = await dealWithBasicSeller();
    // Proposed while the seller was Enhanced, accepted after compliance lowered it to Basic.
    await setProfile(basicSeller.id, { tradingTier: 'enhanced' });
    const counter = await call('PUT', `/api/v1/deals/${dealId}/terms`, buyer.token, {
      stable_amount: '50000000000',
    });
    expect(counter.statusCode, counter.body).toBe(200);
    await setProfile(basicSeller.id, { tradingTier: 'basic' });
    const acceptance = await accept(dealId, basicSeller.token, 2);
    expect(acceptance.statusCode, acceptance.body).toBe(422);
    expect(acceptance.json().error).toMatchObject({
      code: 'TIER_LIMIT_EXCEEDED',
      message: 'This trade exceeds your Basic tier limit of $10,000 per transaction.',
      details: { tier: 'basic', limit_usd: '10000', value_usd: '50000' },
    });
    const [stored] = await database.db.select().from(schema.deals).where(eq(schema.deals.id, dealId));
    expect(stored).toMatchObject({ status: 'cis_submitted', acceptedTermsVersion: null, termsHash: null });
  });

  it('refuses to accept terms over the proposer’s limit', async () => {
    const { dealId, basicSeller } = await dealWithBasicSeller();
    await setProfile(basicSeller.id, { tradingTier: 'enhanced' });
    const counter = await call('PUT', `/api/v1/deals/${dealId}/terms`, basicSeller.token, {
      stable_amount: '50000000000',
    });
    expect(counter.statusCode, counter.body).toBe(200);
    await setProfile(basicSeller.id, { tradingTier: 'basic' });
    const acceptance = await accept(dealId, buyer.token, 2);
    expect(acceptance.statusCode, acceptance.body).toBe(422);
    expect(acceptance.json().error).toMatchObject({
      code: 'TIER_LIMIT_EXCEEDED',
      message: 'This trade exceeds your counterparty’s tier limit per transaction.',
      details: { party: 'counterparty', value_usd: '50000' },
    });
  });

  it('needs both parties KYC-complete at acceptance', async () => {
    const { dealId, basicSeller } = await dealWithBasicSeller();
    await setProfile(buyer.id, { kycCompleted: false });
    try {
      const counterpartyKyc = await accept(dealId, basicSeller.token, 1);
      expect(counterpartyKyc.statusCode, counterpartyKyc.body).toBe(403);
      expect(counterpartyKyc.json().error).toMatchObject({
        code: 'KYC_REQUIRED',
        message: 'Your counterparty has not completed KYC verification.',
        details: { party: 'counterparty' },
      });
    } finally {
      await setProfile(buyer.id, { kycCompleted: true });
    }
    await setProfile(basicSeller.id, { kycCompleted: false });
    const ownKyc = await accept(dealId, basicSeller.token, 1);
    expect(ownKyc.statusCode, ownKyc.body).toBe(403);
    expect(ownKyc.json().error).toMatchObject({
      code: 'KYC_REQUIRED',
      message: 'Please complete KYC verification before trading.',
    });
    await setProfile(basicSeller.id, { kycCompleted: true });
    const agreed = await accept(dealId, basicSeller.token, 1);
    expect(agreed.statusCode, agreed.body).toBe(200);
  });
});

describe('concurrency', () => {
  it('lets exactly one of two simultaneous acceptances win', async () => {
    const dealId = await newDeal();
    await setBothAddresses(dealId);
    const responses = await Promise.all([accept(dealId, seller.token, 1), accept(dealId, seller.token, 1)]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    const loser = responses.find((response) => response.statusCode === 409)!;
    expect(loser.json().error).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { status: 'terms_agreed' },
    });
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json();
    expect(audit.verified).toBe(true);
    expect(
      audit.entries.filter((entry: { action: string }) => entry.action === 'terms_accepted'),
    ).toHaveLength(1);
  });

  it('serialises a cancel and an acceptance: the deal ends cancelled, and the trail shows the order', async () => {
    const dealId = await newDeal();
    await setBothAddresses(dealId);
    const [cancel, acceptance] = await Promise.all([
      call('POST', `/api/v1/deals/${dealId}/cancel`, buyer.token, { reason: 'Found a better price' }),
      accept(dealId, seller.token, 1),
    ]);
    // Cancelling is allowed until funding, so it wins in either order; an acceptance that comes second
    // meets a cancelled deal and is refused.
    expect(cancel.statusCode).toBe(200);
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json();
    expect(audit.verified).toBe(true);
    const actions = audit.entries.map((entry: { action: string }) => entry.action).slice(3);
    if (acceptance.statusCode === 200) {
      expect(actions).toEqual(['terms_accepted', 'cancelled']);
      expect(audit.entries.at(-1).payload).toMatchObject({ from_status: 'terms_agreed' });
    } else {
      expect(acceptance.statusCode).toBe(409);
      expect(acceptance.json().error).toMatchObject({
        code: 'INVALID_STATE_TRANSITION',
        details: { status: 'cancelled' },
      });
      expect(actions).toEqual(['cancelled']);
    }
    const [stored] = await database.db.select().from(schema.deals).where(eq(schema.deals.id, dealId));
    expect(stored!.status).toBe('cancelled');
  });
});

describe('once the escrow is open', () => {
  /** Agreed terms with the escrow opened on them (its row is what `createEscrow` writes last). */
  async function dealWithEscrow(): Promise<string> {
    const dealId = await newDeal();
    await setBothAddresses(dealId);
    expect((await accept(dealId, seller.token, 1)).statusCode).toBe(200);
    await database.db.insert(schema.escrows).values({ dealId });
    return dealId;
  }

  it('refuses new terms and new addresses with DEAL_NOT_ACTIVE, changing nothing', async () => {
    // Before the escrow opens, either still reopens the negotiation (the test above); here it is open.
    const dealId = await dealWithEscrow();
    const [agreed] = await database.db.select().from(schema.deals).where(eq(schema.deals.id, dealId));
    const trailBefore = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json().entries
      .length;

    const terms = await call('PUT', `/api/v1/deals/${dealId}/terms`, seller.token, {
      stable_amount: '31000000000',
    });
    expect(terms.statusCode, terms.body).toBe(409);
    expect(terms.json().error).toMatchObject({
      code: 'DEAL_NOT_ACTIVE',
      details: { status: 'terms_agreed', reason: 'escrow_opened' },
    });
    // The seller redirecting its payout: the escrow would still pay the address it opened with.
    const addresses = await call('PUT', `/api/v1/deals/${dealId}/addresses`, seller.token, {
      ...sellerAddresses,
      payout_address: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    });
    expect(addresses.statusCode, addresses.body).toBe(409);
    expect(addresses.json().error).toMatchObject({
      code: 'DEAL_NOT_ACTIVE',
      details: { status: 'terms_agreed', reason: 'escrow_opened' },
    });

    const [after] = await database.db.select().from(schema.deals).where(eq(schema.deals.id, dealId));
    expect(after).toMatchObject({
      status: 'terms_agreed',
      termsVersion: 1,
      acceptedTermsVersion: 1,
      termsHash: agreed!.termsHash,
      termsAgreedAt: agreed!.termsAgreedAt,
      stableAmount: '30000000000',
    });
    const [stored] = await database.db
      .select()
      .from(schema.dealAddresses)
      .where(and(eq(schema.dealAddresses.dealId, dealId), eq(schema.dealAddresses.party, 'seller')));
    expect(stored!.payoutAddress).toBe(sellerAddresses.payout_address);
    const trailAfter = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json().entries
      .length;
    expect(trailAfter).toBe(trailBefore);
  });

  it('refuses to accept terms again on a deal reopened after its escrow opened', async () => {
    // What a proposal after the escrow opened used to leave: the deal back in cis_submitted, the escrow
    // still on the terms it opened with.
    const dealId = await dealWithEscrow();
    await database.db
      .update(schema.deals)
      .set({ status: 'cis_submitted', acceptedTermsVersion: null, termsHash: null, termsAgreedAt: null })
      .where(eq(schema.deals.id, dealId));
    const acceptance = await accept(dealId, seller.token, 1);
    expect(acceptance.statusCode, acceptance.body).toBe(409);
    expect(acceptance.json().error).toMatchObject({
      code: 'DEAL_NOT_ACTIVE',
      details: { status: 'cis_submitted', reason: 'escrow_opened' },
    });
    const [stored] = await database.db.select().from(schema.deals).where(eq(schema.deals.id, dealId));
    expect(stored).toMatchObject({ status: 'cis_submitted', acceptedTermsVersion: null });
  });
});

describe('closed deals and strangers', () => {
  it.each(['escrow_funded', 'cancelled', 'completed'] as const)(
    'refuses term and address changes on a %s deal with DEAL_NOT_ACTIVE',
    async (status) => {
      const dealId = await newDeal();
      await setStatus(dealId, status);
      const terms = await call('PUT', `/api/v1/deals/${dealId}/terms`, seller.token, { asset_amount: '1' });
      expect(terms.statusCode).toBe(409);
      expect(terms.json().error.code).toBe('DEAL_NOT_ACTIVE');
      const addresses = await call('PUT', `/api/v1/deals/${dealId}/addresses`, buyer.token, buyerAddresses);
      expect(addresses.statusCode).toBe(409);
      expect(addresses.json().error.code).toBe('DEAL_NOT_ACTIVE');
      const acceptance = await accept(dealId, seller.token, 1);
      expect(acceptance.statusCode).toBe(409);
      expect(acceptance.json().error.code).toBe('INVALID_STATE_TRANSITION');
      const versions = await database.db
        .select()
        .from(schema.dealTermsVersions)
        .where(eq(schema.dealTermsVersions.dealId, dealId));
      expect(versions).toHaveLength(1);
    },
  );

  it('hides terms, acceptance and addresses from anybody but the parties (404)', async () => {
    const dealId = await newDeal();
    await setBothAddresses(dealId);
    const attempts = [
      await call('GET', `/api/v1/deals/${dealId}/terms`, outsider.token),
      await call('PUT', `/api/v1/deals/${dealId}/terms`, outsider.token, { asset_amount: '1' }),
      await accept(dealId, outsider.token, 1),
      await call('PUT', `/api/v1/deals/${dealId}/addresses`, outsider.token, sellerAddresses),
    ];
    for (const response of attempts) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    }
    const [stored] = await database.db.select().from(schema.deals).where(eq(schema.deals.id, dealId));
    expect(stored).toMatchObject({ status: 'cis_submitted', termsVersion: 1, assetAmount: '50000000' });
  });
});

describe('terms that require a meeting', () => {
  const meeting = {
    location: 'Geneva, Hotel des Bergues',
    latitude: '46.2075',
    longitude: '6.1453',
    starts_on: '2099-03-02',
    duration: '2-5',
    travel_paid_by: 'seller',
  };

  it('cannot be accepted until the meeting’s details are proposed; they are then part of the hash', async () => {
    const created = await call('POST', '/api/v1/deals', buyer.token, {
      ...openingTerms,
      meeting_required: true,
      travel_location: 'Geneva',
      counterparty_id: seller.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      meeting_required: true,
      travel_location: 'Geneva',
      meeting: null,
    });
    const dealId: string = created.json().id;
    await setStatus(dealId, 'cis_submitted');
    await setBothAddresses(dealId);
    const early = await accept(dealId, seller.token, 1);
    expect(early.statusCode).toBe(422);
    expect(early.json().error.code).toBe('MEETING_DETAILS_REQUIRED');

    const proposed = await call('PUT', `/api/v1/deals/${dealId}/terms`, buyer.token, { meeting });
    expect(proposed.statusCode, proposed.body).toBe(200);
    expect(proposed.json()).toMatchObject({ version: 2, meeting, travel_location: meeting.location });
    const accepted = await accept(dealId, seller.token, 2);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const terms = (await call('GET', `/api/v1/deals/${dealId}/terms`, seller.token)).json();
    const agreed = terms.versions.find((version: { version: number }) => version.version === 2).terms;
    expect(agreed.meeting).toEqual(meeting);
    const expected = sha256(
      canonical({
        deal_id: dealId,
        version: 2,
        terms: agreed,
        addresses: { buyer: buyerAddresses, seller: sellerAddresses },
      }),
    );
    expect(accepted.json().terms_hash).toBe(expected);
  });

  it('refuses a meeting whose first day has passed, impossible coordinates, or an unknown duration', async () => {
    const dealId = await newDeal();
    const refused = async (change: Record<string, unknown>) => {
      const response = await call('PUT', `/api/v1/deals/${dealId}/terms`, buyer.token, {
        meeting_required: true,
        meeting: { ...meeting, ...change },
      });
      expect(response.statusCode, response.body).toBe(400);
      return response.json().error;
    };
    expect((await refused({ starts_on: '2020-01-01' })).message).toBe(
      'The meeting’s first day has already passed',
    );
    await refused({ latitude: '95' });
    await refused({ duration: '1-10' });
    await refused({ starts_on: '2099-02-30' });
  });

  it('drops the meeting when a proposal no longer requires one', async () => {
    const created = await call('POST', '/api/v1/deals', buyer.token, {
      ...openingTerms,
      meeting_required: true,
      meeting,
      counterparty_id: seller.id,
    });
    expect(created.json()).toMatchObject({ meeting, travel_location: meeting.location });
    const dealId: string = created.json().id;
    await setStatus(dealId, 'cis_submitted');
    const dropped = await call('PUT', `/api/v1/deals/${dealId}/terms`, seller.token, {
      meeting_required: false,
    });
    expect(dropped.json()).toMatchObject({ meeting_required: false, meeting: null, travel_location: null });
  });
});
