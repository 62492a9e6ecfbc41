import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import {
  AppError,
  type DealAction,
  type DealActor,
  type DealStatus,
  dealActions,
  dealStatuses,
  dealTransitions,
  nextDealStatus,
} from '@covenant/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';
import { insertEscrowLegs } from '../../testing/insert-escrow-rows.js';

// The transition table over HTTP: every status × every action a person can take × every role
// (the deal's buyer and seller, a mediator, a trader who is not a party). Each case gets a fresh deal
// put straight into the status, with everything else the action needs already in place (CIS sheets,
// addresses, a proposal by the other side, an open dispute), so the status and the caller are the
// only things that vary. The expected answer comes from nextDealStatus: an allowed move answers 2xx
// and leaves the deal in the table's next status with an audit trail that verifies; a refused one
// answers 409 with the table's error code and changes nothing. Parties' routes answer 404 to anyone
// who is not a party, and the mediators' decision route 403 to anyone who is not a mediator.

type Role = 'buyer' | 'seller' | 'mediator' | 'stranger';
const roles: Role[] = ['buyer', 'seller', 'mediator', 'stranger'];

/** Actions only the platform takes (escrow funding, release, the funding and settlement deadlines): no HTTP route does them. */
const systemActions: DealAction[] = ['fund_escrow', 'release', 'expire_funding', 'expire_settlement'];
const staffActions: DealAction[] = ['resolve_release', 'resolve_refund', 'resolve_split'];
const httpActions = dealActions.filter((action) => !systemActions.includes(action));

const assetAmount = '100000000';
const stableAmount = '60000000000';
const ethAddress = (digit: string) => `0x${digit.repeat(40)}`;
const addressesOf = { buyer: ethAddress('1'), seller: ethAddress('2') };
// What set_addresses sends: new addresses (sending the stored ones again changes nothing, by design).
const newAddressesOf = { buyer: ethAddress('3'), seller: ethAddress('4') };
const rationale = 'The evidence shows the counterparty did what the agreed terms required.';

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
const users = {} as Record<Role, TestTrader>;
const sheets = {} as Record<Role, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database, env: { API_RATE_LIMIT_STANDARD: '100000' } });
  app = testApp.app;
  users.buyer = await createTestTrader(app);
  users.seller = await createTestTrader(app);
  users.mediator = await createTestTrader(app, { roles: ['mediator'] });
  users.stranger = await createTestTrader(app);
  for (const role of roles) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/cis',
      headers: { authorization: `Bearer ${users[role].token}` },
      payload: {
        legal_name: `${role} Holdings Ltd`,
        entity_type: 'company',
        jurisdiction: 'CH',
        source_of_funds: 'Retained trading profits',
        assets: ['WBTC', 'USDT'],
        size_min_usd: 1_000_000,
        size_max_usd: 10_000_000,
        preferred_chains: ['ETH'],
        settlement_window_hours: 24,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    sheets[role] = response.json().id;
  }
}, 60_000);
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

const otherParty = (party: 'buyer' | 'seller') => (party === 'buyer' ? 'seller' : 'buyer');

/** A deal between the buyer and the seller in `status`, prepared for `action` by `caller`. */
async function prepareDeal(status: DealStatus, action: DealAction, caller: Role) {
  const db = database.db;
  const party = caller === 'seller' ? 'seller' : 'buyer';
  const terms = {
    asset_chain: 'ETH',
    asset_symbol: 'WBTC',
    asset_amount: assetAmount,
    stable_chain: 'ETH',
    stable_symbol: 'USDT',
    stable_amount: stableAmount,
    funding_deadline_hours: 24,
    meeting_required: false,
    travel_location: null,
  };
  const [deal] = await db
    .insert(schema.deals)
    .values({
      buyerId: users.buyer.id,
      sellerId: users.seller.id,
      assetChain: 'ETH',
      assetSymbol: 'WBTC',
      assetAmount,
      stableChain: 'ETH',
      stableSymbol: 'USDT',
      stableAmount,
      status,
      termsVersion: 2,
    })
    .returning();
  const dealId = deal!.id;
  // Version 2 is the other side's proposal, so the caller may accept it.
  await db.insert(schema.dealTermsVersions).values([
    { dealId, version: 1, proposedBy: users.buyer.id, terms },
    { dealId, version: 2, proposedBy: users[otherParty(party)].id, terms },
  ]);
  await db.insert(schema.dealAddresses).values(
    (['buyer', 'seller'] as const).map((side) => ({
      dealId,
      party: side,
      payoutAddress: addressesOf[side],
      refundAddress: addressesOf[side],
    })),
  );
  if (action === 'review_cis' || action === 'complete_cis_exchange') {
    const other = otherParty(party);
    await db.insert(schema.dealCis).values({ dealId, party: other, cisId: sheets[other], status: 'pending' });
    // The reviewer has attached its own sheet (the other's is shown only then); when it is approved,
    // the caller's approval completes the exchange.
    const own = action === 'complete_cis_exchange' ? 'approved' : 'pending';
    await db.insert(schema.dealCis).values({ dealId, party, cisId: sheets[party], status: own });
  }
  let disputeId: string | null = null;
  if (staffActions.includes(action)) {
    // Disputed once funded: the escrow is open and both legs hold their amount (a decision without an
    // escrow cancels the deal instead; release and split on a short escrow are refused).
    const [escrow] = await db
      .insert(schema.escrows)
      .values({ dealId, status: 'funded' })
      .returning({ id: schema.escrows.id });
    await insertEscrowLegs(db, escrow!.id, {
      asset: { chain: 'ETH', symbol: 'WBTC', required: assetAmount, received: assetAmount },
      stable: { chain: 'ETH', symbol: 'USDT', required: stableAmount, received: stableAmount },
    });
    const [dispute] = await db
      .insert(schema.dealDisputes)
      .values({
        dealId,
        openedBy: users.buyer.id,
        reason: 'The seller stopped answering.',
        statusBefore: 'escrow_funded',
      })
      .returning();
    disputeId = dispute!.id;
  }
  return { dealId, disputeId };
}

/** The HTTP request that asks for `action`. */
function requestFor(action: DealAction, caller: Role, dealId: string, disputeId: string | null) {
  const deal = `/api/v1/deals/${dealId}`;
  const party = caller === 'seller' ? 'seller' : 'buyer';
  switch (action) {
    case 'propose_terms':
      return { method: 'PUT', url: `${deal}/terms`, payload: { funding_deadline_hours: 48 } } as const;
    case 'set_addresses':
      return {
        method: 'PUT',
        url: `${deal}/addresses`,
        payload: { payout_address: newAddressesOf[party], refund_address: newAddressesOf[party] },
      } as const;
    case 'attach_cis':
      return { method: 'POST', url: `${deal}/cis`, payload: { cis_id: sheets[caller] } } as const;
    case 'review_cis':
      return {
        method: 'POST',
        url: `${deal}/cis/reject`,
        payload: { cis_id: sheets[otherParty(party)], comment: 'The jurisdiction is missing.' },
      } as const;
    case 'complete_cis_exchange':
      return {
        method: 'POST',
        url: `${deal}/cis/approve`,
        payload: { cis_id: sheets[otherParty(party)] },
      } as const;
    case 'accept_terms':
      return { method: 'POST', url: `${deal}/terms/accept`, payload: { version: 2 } } as const;
    case 'cancel':
      return { method: 'POST', url: `${deal}/cancel`, payload: { reason: 'We changed our plans.' } } as const;
    case 'open_dispute':
      return {
        method: 'POST',
        url: `${deal}/disputes`,
        payload: { reason: 'The counterparty stopped answering our messages.' },
      } as const;
    case 'resolve_release':
    case 'resolve_refund':
    case 'resolve_split': {
      const decision = action.replace('resolve_', '');
      const split = {
        asset: { buyer: '60000000', seller: '40000000' },
        stable: { buyer: '30000000000', seller: '30000000000' },
      };
      return {
        method: 'POST',
        url: `/api/v1/staff/disputes/${disputeId}/decision`,
        payload: decision === 'split' ? { decision, split, rationale } : { decision, rationale },
      } as const;
    }
    default:
      throw new Error(`no HTTP request for ${action}`);
  }
}

type Expected = { status: number; code?: string; next?: DealStatus };

function expectedFor(status: DealStatus, action: DealAction, caller: Role): Expected {
  const staffRoute = staffActions.includes(action);
  if (staffRoute && caller !== 'mediator') return { status: 403, code: 'FORBIDDEN' };
  if (!staffRoute && (caller === 'mediator' || caller === 'stranger'))
    return { status: 404, code: 'NOT_FOUND' };
  const actor: DealActor = caller === 'mediator' ? 'mediator' : caller === 'seller' ? 'seller' : 'buyer';
  try {
    return { status: 200, next: nextDealStatus(status, action, actor) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, code: error.code };
  }
}

const cases = dealStatuses.flatMap((status) =>
  httpActions.flatMap((action) => roles.map((role) => [status, action, role] as const)),
);

describe('the deal transition table over HTTP (every status × action × role)', () => {
  it('covers every status, every action a person takes and every role', () => {
    expect(cases).toHaveLength(dealStatuses.length * httpActions.length * roles.length);
    // The actions left out are the platform's alone: no role reaches them through the API.
    for (const transition of dealTransitions.filter((entry) => systemActions.includes(entry.action))) {
      expect(transition.actors).toEqual(['system']);
    }
  });

  it.each(cases)('%s: %s by %s', async (status, action, role) => {
    const { dealId, disputeId } = await prepareDeal(status, action, role);
    const expected = expectedFor(status, action, role);
    const request = requestFor(action, role, dealId, disputeId);
    const response = await app.inject({
      ...request,
      headers: { authorization: `Bearer ${users[role].token}` },
    });
    const [after] = await database.db
      .select({ status: schema.deals.status })
      .from(schema.deals)
      .where(eq(schema.deals.id, dealId));
    if (expected.next) {
      expect([response.statusCode, response.body]).toEqual([
        response.statusCode >= 200 && response.statusCode < 300 ? response.statusCode : 200,
        response.body,
      ]);
      expect(after!.status).toBe(expected.next);
      const audit = await app.inject({
        method: 'GET',
        url: `/api/v1/deals/${dealId}/audit`,
        headers: { authorization: `Bearer ${users.buyer.token}` },
      });
      expect(audit.json()).toMatchObject({ verified: true });
      expect(audit.json().entries.length).toBeGreaterThan(0);
    } else {
      expect([response.statusCode, response.json().error?.code]).toEqual([expected.status, expected.code]);
      expect(after!.status).toBe(status);
    }
  });
});
