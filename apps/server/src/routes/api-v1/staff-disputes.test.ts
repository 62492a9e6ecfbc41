import { randomUUID } from 'node:crypto';
import { type Database, schema } from '@covenant/db';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';
import { insertEscrowLegs } from '../../testing/insert-escrow-rows.js';
import { type DealParties, startDealParties } from '../../testing/start-deal-parties.js';

let parties: DealParties;
let database: Database;
let app: FastifyInstance;
let buyer: TestTrader;
let seller: TestTrader;
let mediator: TestTrader;
let otherMediator: TestTrader;

beforeAll(async () => {
  parties = await startDealParties();
  ({ database, app, buyer, seller } = parties);
  mediator = await createTestTrader(app, { roles: ['mediator'] });
  otherMediator = await createTestTrader(app, { roles: ['mediator'] });
});
afterAll(async () => {
  await parties?.close();
});

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const reason = 'The buyer never funded the stable leg as agreed.';
const rationale = 'The chat log and the receipts show the seller delivered as agreed.';

function call(
  method: 'GET' | 'POST',
  url: string,
  token: string,
  payload?: Record<string, unknown> | FormData,
) {
  return app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
}

/**
 * A funded deal of 0.5 WBTC (50 000 000 base units) against 30 000 USDC (30 000 000 000 base units),
 * disputed by the seller; with `escrow: false`, a deal disputed once its terms were agreed, before
 * its escrow opened; with `received`, a deal disputed once its terms were agreed while its escrow was
 * being funded, each leg holding `received` of it in confirmed deposits.
 */
async function disputedDeal({
  escrow = true,
  received,
}: {
  escrow?: boolean;
  received?: { asset: string; stable: string };
} = {}): Promise<{ dealId: string; disputeId: string }> {
  const created = await call('POST', '/api/v1/deals', buyer.token, {
    asset_chain: 'ETH',
    asset_symbol: 'WBTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    counterparty_id: seller.id,
  });
  expect(created.statusCode, created.body).toBe(201);
  const dealId: string = created.json().id;
  const funded = escrow && !received;
  await database.db
    .update(schema.deals)
    .set({ status: funded ? 'escrow_funded' : 'terms_agreed' })
    .where(eq(schema.deals.id, dealId));
  if (escrow) {
    const [row] = await database.db
      .insert(schema.escrows)
      .values({ dealId, status: funded ? 'funded' : 'awaiting_funding' })
      .returning({ id: schema.escrows.id });
    await insertEscrowLegs(database.db, row!.id, {
      asset: { chain: 'ETH', symbol: 'WBTC', required: '50000000', received: received?.asset ?? '50000000' },
      stable: {
        chain: 'ETH',
        symbol: 'USDC',
        required: '30000000000',
        received: received?.stable ?? '30000000000',
      },
    });
  }
  const body = new FormData();
  body.append('reason', reason);
  body.append('evidence', new Blob([png], { type: 'image/png' }), 'chat.png');
  const opened = await call('POST', `/api/v1/deals/${dealId}/disputes`, seller.token, body);
  expect(opened.statusCode, opened.body).toBe(201);
  return { dealId, disputeId: opened.json().id };
}

async function instructionsOf(disputeId: string) {
  return database.db
    .select()
    .from(schema.escrowInstructions)
    .where(eq(schema.escrowInstructions.disputeId, disputeId));
}

const statusOf = async (dealId: string) =>
  (await database.db.select().from(schema.deals).where(eq(schema.deals.id, dealId)))[0]!.status;

describe('/api/v1/staff/disputes guard', () => {
  it('answers 403 to traders and to a mediator without a second factor on every route', async () => {
    const { disputeId } = await disputedDeal();
    const [dispute] = await database.db
      .select()
      .from(schema.disputeEvidence)
      .where(eq(schema.disputeEvidence.disputeId, disputeId));
    const aal1Mediator = await createTestTrader(app, { roles: ['mediator'], aal: 'aal1' });
    const compliance = await createTestTrader(app, { roles: ['compliance'] });
    const routes: ['GET' | 'POST', string, Record<string, unknown>?][] = [
      ['GET', '/api/v1/staff/disputes'],
      ['GET', '/api/v1/staff/disputes?status=open'],
      ['GET', `/api/v1/staff/disputes/${disputeId}`],
      ['GET', `/api/v1/staff/disputes/${disputeId}/evidence/${dispute!.id}`],
      ['POST', `/api/v1/staff/disputes/${disputeId}/assign`],
      ['POST', `/api/v1/staff/disputes/${disputeId}/decision`, { decision: 'release', rationale }],
    ];
    for (const [method, url, payload] of routes) {
      for (const trader of [buyer, seller, compliance]) {
        const response = await call(method, url, trader.token, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json().error.code).toBe('FORBIDDEN');
      }
      const weak = await call(method, url, aal1Mediator.token, payload);
      expect(weak.statusCode, `${method} ${url} at aal1`).toBe(403);
      expect(weak.json().error).toMatchObject({ code: 'FORBIDDEN', details: { required_aal: 'aal2' } });
      const anonymous = await app.inject({ method, url, payload });
      expect(anonymous.statusCode).toBe(401);
    }
    const [row] = await database.db
      .select()
      .from(schema.dealDisputes)
      .where(eq(schema.dealDisputes.id, disputeId));
    expect(row).toMatchObject({ status: 'open', mediatorId: null });
  });

  it('refuses a mediator who is a party of the deal (403): deciding, taking, and reading the case or its evidence', async () => {
    const judge = await createTestTrader(app, { roles: ['mediator'] });
    const created = await call('POST', '/api/v1/deals', judge.token, {
      asset_chain: 'ETH',
      asset_symbol: 'WBTC',
      asset_amount: '1000',
      stable_chain: 'ETH',
      stable_symbol: 'USDC',
      stable_amount: '2000',
      counterparty_id: seller.id,
    });
    const dealId: string = created.json().id;
    await database.db.update(schema.deals).set({ status: 'terms_agreed' }).where(eq(schema.deals.id, dealId));
    const opened = await call('POST', `/api/v1/deals/${dealId}/disputes`, seller.token, { reason });
    const disputeId: string = opened.json().id;
    const assign = await call('POST', `/api/v1/staff/disputes/${disputeId}/assign`, judge.token);
    expect(assign.statusCode).toBe(403);
    const decide = await call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, judge.token, {
      decision: 'refund',
      rationale,
    });
    expect(decide.statusCode).toBe(403);
    expect(await statusOf(dealId)).toBe('disputed');
    // The case shows the other party's CIS and evidence: not to a mediator who is a party.
    const caseRead = await call('GET', `/api/v1/staff/disputes/${disputeId}`, judge.token);
    expect(caseRead.statusCode, caseRead.body).toBe(403);
    expect(caseRead.json().error.message).toBe('A mediator cannot read a dispute of their own deal');
    const evidence = await call(
      'GET',
      `/api/v1/staff/disputes/${disputeId}/evidence/${randomUUID()}`,
      judge.token,
    );
    expect(evidence.statusCode, evidence.body).toBe(403);
  });
});

describe('GET /api/v1/staff/disputes', () => {
  it('lists open disputes first, oldest first, with the deal and the parties’ usernames', async () => {
    const older = await disputedDeal();
    const newer = await disputedDeal();
    const decided = await disputedDeal();
    const decision = await call(
      'POST',
      `/api/v1/staff/disputes/${decided.disputeId}/decision`,
      mediator.token,
      {
        decision: 'refund',
        rationale,
      },
    );
    expect(decision.statusCode, decision.body).toBe(200);

    const all = (await call('GET', '/api/v1/staff/disputes', mediator.token)).json().data as {
      id: string;
      status: string;
    }[];
    const ids = all.map((row) => row.id);
    expect(ids.indexOf(older.disputeId)).toBeLessThan(ids.indexOf(newer.disputeId));
    expect(ids.indexOf(newer.disputeId)).toBeLessThan(ids.indexOf(decided.disputeId));
    const firstDecided = all.findIndex((row) => row.status === 'decided');
    expect(all.slice(firstDecided).every((row) => row.status === 'decided')).toBe(true);
    expect(all.find((row) => row.id === older.disputeId)).toMatchObject({
      status: 'open',
      reason,
      mediator: null,
      deal: {
        id: older.dealId,
        status: 'disputed',
        asset_amount: '50000000',
        buyer: { id: buyer.id, username: buyer.username },
        seller: { id: seller.id, username: seller.username },
      },
    });

    const open = (await call('GET', '/api/v1/staff/disputes?status=open', mediator.token)).json().data;
    expect(open.every((row: { status: string }) => row.status === 'open')).toBe(true);
    const closed = (await call('GET', '/api/v1/staff/disputes?status=decided', mediator.token)).json().data;
    expect(closed.map((row: { id: string }) => row.id)).toContain(decided.disputeId);
    expect(closed.every((row: { status: string }) => row.status === 'decided')).toBe(true);
  });
});

describe('GET /api/v1/staff/disputes/:id', () => {
  it('gives the whole case: deal, CIS, terms versions, messages, evidence and the verified audit trail', async () => {
    const { dealId, disputeId } = await disputedDeal();
    await database.db
      .insert(schema.dealMessages)
      .values({ dealId, authorId: buyer.id, body: 'Funds are on the way.' });
    const response = await call('GET', `/api/v1/staff/disputes/${disputeId}`, mediator.token);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.dispute).toMatchObject({ id: disputeId, deal_id: dealId, status: 'open', reason });
    expect(body.dispute.evidence).toEqual([
      expect.objectContaining({ filename: 'chat.png', uploaded_by: seller.id }),
    ]);
    expect(body.deal).toMatchObject({
      id: dealId,
      status: 'disputed',
      buyer: { id: buyer.id, username: buyer.username },
      seller: { id: seller.id, username: seller.username },
      asset_amount: '50000000',
      stable_amount: '30000000000',
    });
    expect(body.deal.counterparty_id).toBeUndefined();
    expect(body.cis).toEqual({ buyer: null, seller: null });
    expect(body.messages).toEqual([
      expect.objectContaining({ author_id: buyer.id, body: 'Funds are on the way.' }),
    ]);
    expect(Array.isArray(body.terms_versions)).toBe(true);
    expect(body.audit).toMatchObject({ deal_id: dealId, verified: true, broken_at_seq: null });
    expect(body.audit.entries.at(-1)).toMatchObject({ action: 'dispute_opened', actor_id: seller.id });
    expect(body.escrow_opened).toBe(true);
    expect(body.escrow_short_legs).toEqual([]);

    const evidence = await call(
      'GET',
      `/api/v1/staff/disputes/${disputeId}/evidence/${body.dispute.evidence[0].id}`,
      mediator.token,
    );
    expect(evidence.statusCode).toBe(200);
    expect(evidence.headers['content-type']).toBe('image/png');
    expect(evidence.rawPayload.equals(png)).toBe(true);

    const missing = await call(
      'GET',
      '/api/v1/staff/disputes/00000000-0000-4000-8000-000000000000',
      mediator.token,
    );
    expect(missing.statusCode).toBe(404);
  });
});

describe('POST /api/v1/staff/disputes/:id/assign', () => {
  it('lets a mediator take the case, recorded in the audit trail', async () => {
    const { dealId, disputeId } = await disputedDeal();
    const taken = await call('POST', `/api/v1/staff/disputes/${disputeId}/assign`, mediator.token);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().mediator_id).toBe(mediator.id);
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json();
    expect(audit.entries.at(-1)).toMatchObject({
      action: 'dispute_assigned',
      actor_id: mediator.id,
      payload: { dispute_id: disputeId, mediator_id: mediator.id, previous_mediator_id: null },
    });

    // The other mediator cannot decide a case someone else holds, but may take it over.
    const decide = await call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, otherMediator.token, {
      decision: 'release',
      rationale,
    });
    expect(decide.statusCode).toBe(409);
    expect(decide.json().error.details).toMatchObject({ reason: 'dispute_taken', mediator_id: mediator.id });
    const takeover = await call('POST', `/api/v1/staff/disputes/${disputeId}/assign`, otherMediator.token);
    expect(takeover.json().mediator_id).toBe(otherMediator.id);
  });
});

describe('POST /api/v1/staff/disputes/:id/decision', () => {
  it('releases per terms: the deal completes and the asset goes to the buyer, the stable to the seller', async () => {
    const { dealId, disputeId } = await disputedDeal();
    const response = await call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
      decision: 'release',
      rationale,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'decided',
      decision: 'release',
      effect: 'escrow_payout',
      amounts: { asset: { buyer: '50000000', seller: '0' }, stable: { buyer: '0', seller: '30000000000' } },
      rationale,
      decided_by: mediator.id,
      mediator_id: mediator.id,
    });
    expect(await statusOf(dealId)).toBe('completed');
    const [instruction, ...more] = await instructionsOf(disputeId);
    expect(more).toHaveLength(0);
    expect(instruction).toMatchObject({ dealId, kind: 'mediator_decision', status: 'queued' });
    expect(instruction!.payload).toEqual({
      dispute_id: disputeId,
      decision: 'release',
      buyer_id: buyer.id,
      seller_id: seller.id,
      legs: {
        asset: {
          chain: 'ETH',
          symbol: 'WBTC',
          amount: '50000000',
          deposited_by: 'seller',
          to_buyer: '50000000',
          to_seller: '0',
          buyer_address: null,
          seller_address: null,
        },
        stable: {
          chain: 'ETH',
          symbol: 'USDC',
          amount: '30000000000',
          deposited_by: 'buyer',
          to_buyer: '0',
          to_seller: '30000000000',
          buyer_address: null,
          seller_address: null,
        },
      },
    });

    // The parties read the decision, and the audit trail still verifies with it as the last entry.
    const seen = (await call('GET', `/api/v1/deals/${dealId}/disputes`, buyer.token)).json().data[0];
    expect(seen).toMatchObject({ decision: 'release', rationale, decided_at: expect.any(String) });
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, seller.token)).json();
    expect(audit.verified).toBe(true);
    expect(audit.entries.at(-1)).toMatchObject({
      action: 'dispute_decided',
      actor_id: mediator.id,
      payload: {
        dispute_id: disputeId,
        decision: 'release',
        rationale,
        amounts: { asset: { buyer: '50000000', seller: '0' }, stable: { buyer: '0', seller: '30000000000' } },
        escrow_instruction_id: instruction!.id,
        from_status: 'disputed',
        to_status: 'completed',
      },
    });

    const again = await call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
      decision: 'refund',
      rationale,
    });
    expect(again.statusCode).toBe(409);
    expect(await instructionsOf(disputeId)).toHaveLength(1);
  });

  it('refunds both: the asset back to the seller, the stable back to the buyer, to their refund addresses', async () => {
    const { dealId, disputeId } = await disputedDeal();
    await database.db.insert(schema.dealAddresses).values([
      { dealId, party: 'buyer', payoutAddress: 'bc1-buyer-payout', refundAddress: '0xbuyer-refund' },
      { dealId, party: 'seller', payoutAddress: '0xseller-payout', refundAddress: 'bc1-seller-refund' },
    ]);
    const response = await call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
      decision: 'refund',
      rationale,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await statusOf(dealId)).toBe('cancelled');
    const [instruction] = await instructionsOf(disputeId);
    expect(instruction!.payload).toMatchObject({
      decision: 'refund',
      legs: {
        asset: {
          to_buyer: '0',
          to_seller: '50000000',
          buyer_address: 'bc1-buyer-payout',
          seller_address: 'bc1-seller-refund',
        },
        stable: {
          to_buyer: '30000000000',
          to_seller: '0',
          buyer_address: '0xbuyer-refund',
          seller_address: '0xseller-payout',
        },
      },
    });
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json();
    expect(audit.verified).toBe(true);
  });

  it('cancels a deal disputed before its escrow opened, whatever the decision, and says that no money moves', async () => {
    const { dealId, disputeId } = await disputedDeal({ escrow: false });
    const travel = await database.db
      .insert(schema.travelItems)
      .values({ dealId, kind: 'hotel', traveller: 'buyer', details: 'Two nights', requestedBy: buyer.id })
      .returning();
    const before = (await call('GET', `/api/v1/staff/disputes/${disputeId}`, mediator.token)).json();
    expect(before.escrow_opened).toBe(false);
    expect(before.dispute).toMatchObject({ status_before: 'terms_agreed', effect: null });

    const response = await call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
      decision: 'release',
      rationale,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'decided',
      decision: 'release',
      effect: 'deal_cancelled',
      amounts: null,
      rationale,
      decided_by: mediator.id,
    });
    expect(await statusOf(dealId)).toBe('cancelled');
    // Nothing was deposited: no instruction for the escrow engine, no payout anywhere.
    expect(await instructionsOf(disputeId)).toEqual([]);
    const [travelAfter] = await database.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.id, travel[0]!.id));
    expect(travelAfter!.status).toBe('cancelled');

    const seen = (await call('GET', `/api/v1/deals/${dealId}/disputes`, seller.token)).json().data[0];
    expect(seen).toMatchObject({ decision: 'release', effect: 'deal_cancelled', amounts: null });
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json();
    expect(audit.verified).toBe(true);
    const decided = audit.entries.find((entry: { action: string }) => entry.action === 'dispute_decided');
    expect(decided).toMatchObject({
      actor_id: mediator.id,
      payload: {
        dispute_id: disputeId,
        decision: 'release',
        effect: 'deal_cancelled',
        amounts: null,
        escrow_instruction_id: null,
        from_status: 'disputed',
        to_status: 'cancelled',
      },
    });
  });

  it.each([
    ['the stable leg holds nothing', { asset: '50000000', stable: '0' }, ['stable']],
    ['the stable leg holds part of its amount', { asset: '50000000', stable: '29999999999' }, ['stable']],
    ['the asset leg holds nothing', { asset: '0', stable: '30000000000' }, ['asset']],
    ['the asset leg holds part of its amount', { asset: '49999999', stable: '30000000000' }, ['asset']],
    ['both legs are short', { asset: '1', stable: '0' }, ['asset', 'stable']],
  ] as const)('refuses release and split while %s, and still refunds', async (_, received, short) => {
    // Disputed while the escrow was being funded: a release would pay out the funded leg while the
    // short one pays (nearly) nothing back.
    const { dealId, disputeId } = await disputedDeal({ received });
    const required = { asset: '50000000', stable: '30000000000' };
    const shortLegs = short.map((leg) => ({ leg, required: required[leg], received: received[leg] }));
    const before = (await call('GET', `/api/v1/staff/disputes/${disputeId}`, mediator.token)).json();
    expect(before).toMatchObject({ escrow_opened: true, escrow_short_legs: shortLegs });

    const decide = (body: Record<string, unknown>) =>
      call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, { ...body, rationale });
    const split = {
      asset: { buyer: '25000000', seller: '25000000' },
      stable: { buyer: '15000000000', seller: '15000000000' },
    };
    for (const refused of [
      await decide({ decision: 'release' }),
      await decide({ decision: 'split', split }),
    ]) {
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().error).toMatchObject({
        code: 'INSUFFICIENT_BALANCE',
        message: expect.stringMatching(
          /needs both legs of the escrow fully funded.*only a refund can be decided/,
        ),
        details: { reason: 'escrow_not_funded', short_legs: shortLegs },
      });
    }
    expect(await statusOf(dealId)).toBe('disputed');
    expect(await instructionsOf(disputeId)).toEqual([]);
    const [open] = await database.db
      .select()
      .from(schema.dealDisputes)
      .where(eq(schema.dealDisputes.id, disputeId));
    expect(open).toMatchObject({ status: 'open', decision: null });

    const refunded = await decide({ decision: 'refund' });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ decision: 'refund', effect: 'escrow_payout' });
    expect(await statusOf(dealId)).toBe('cancelled');
    const [instruction, ...more] = await instructionsOf(disputeId);
    expect(more).toEqual([]);
    expect(instruction!.payload).toMatchObject({ decision: 'refund' });
  });

  it('splits each leg with the mediator’s exact amounts', async () => {
    const { dealId, disputeId } = await disputedDeal();
    // asset: 12 345 678 + 37 654 322 = 50 000 000; stable: 29 999 999 999 + 1 = 30 000 000 000
    const split = {
      asset: { buyer: '12345678', seller: '37654322' },
      stable: { buyer: '29999999999', seller: '1' },
    };
    const response = await call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
      decision: 'split',
      split,
      rationale,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ decision: 'split', amounts: split });
    expect(await statusOf(dealId)).toBe('completed');
    const [instruction] = await instructionsOf(disputeId);
    expect(instruction!.payload).toMatchObject({
      decision: 'split',
      legs: {
        asset: { amount: '50000000', to_buyer: '12345678', to_seller: '37654322' },
        stable: { amount: '30000000000', to_buyer: '29999999999', to_seller: '1' },
      },
    });
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json();
    expect(audit.verified).toBe(true);
    expect(audit.entries.at(-1).payload.amounts).toEqual(split);
  });

  it('refuses a split that does not add up to the leg, and malformed decisions, changing nothing', async () => {
    const { dealId, disputeId } = await disputedDeal();
    const decide = (body: Record<string, unknown>) =>
      call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, body);
    // stable: 15 000 000 000 + 15 000 000 001 = 30 000 000 001, one base unit too many
    const over = await decide({
      decision: 'split',
      split: {
        asset: { buyer: '25000000', seller: '25000000' },
        stable: { buyer: '15000000000', seller: '15000000001' },
      },
      rationale,
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: [{ path: '/split/stable', expected: '30000000000', actual: '30000000001' }] },
    });
    const noSplit = await decide({ decision: 'split', rationale });
    expect(noSplit.statusCode).toBe(400);
    const shortRationale = await decide({ decision: 'release', rationale: 'Because.' });
    expect(shortRationale.statusCode).toBe(400);
    const negative = await decide({
      decision: 'split',
      split: { asset: { buyer: '-1', seller: '50000001' }, stable: { buyer: '0', seller: '30000000000' } },
      rationale,
    });
    expect(negative.statusCode).toBe(400);
    expect(await statusOf(dealId)).toBe('disputed');
    expect(await instructionsOf(disputeId)).toHaveLength(0);
    const [row] = await database.db
      .select()
      .from(schema.dealDisputes)
      .where(eq(schema.dealDisputes.id, disputeId));
    expect(row!.status).toBe('open');
  });

  it('lets exactly one of two simultaneous decisions win', async () => {
    const { disputeId } = await disputedDeal();
    const responses = await Promise.all([
      call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
        decision: 'release',
        rationale,
      }),
      call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
        decision: 'refund',
        rationale,
      }),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(await instructionsOf(disputeId)).toHaveLength(1);
  });

  it('keeps the audit trail verifiable only while nobody rewrites the decision', async () => {
    const { dealId, disputeId } = await disputedDeal();
    await call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
      decision: 'release',
      rationale,
    });
    const before = (await call('GET', `/api/v1/staff/disputes/${disputeId}`, mediator.token)).json().audit;
    expect(before.verified).toBe(true);
    const decidedSeq = before.entries.at(-1).seq;
    // Behind the application's back: the trigger that refuses UPDATE is switched off for the edit.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table deal_audit_entries disable trigger deal_audit_entries_append_only`);
      await tx.execute(
        sql`update deal_audit_entries set payload = jsonb_set(payload, '{decision}', '"refund"') where deal_id = ${dealId} and seq = ${decidedSeq}`,
      );
      await tx.execute(sql`alter table deal_audit_entries enable trigger deal_audit_entries_append_only`);
    });
    const after = (await call('GET', `/api/v1/staff/disputes/${disputeId}`, mediator.token)).json().audit;
    expect(after).toMatchObject({ verified: false, broken_at_seq: decidedSeq });
  });
});
