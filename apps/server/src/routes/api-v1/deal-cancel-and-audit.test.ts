import { createHash } from 'node:crypto';
import { type Database, schema } from '@covenant/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTrader } from '../../testing/create-test-trader.js';
import { type DealParties, startDealParties } from '../../testing/start-deal-parties.js';

let parties: DealParties;
let database: Database;
let buyer: TestTrader;
let seller: TestTrader;
let outsider: TestTrader;

beforeAll(async () => {
  parties = await startDealParties();
  ({ database, buyer, seller, outsider } = parties);
});
afterAll(async () => {
  await parties?.close();
});

const call: DealParties['call'] = (...args) => parties.call(...args);
const newDeal = () => parties.newDeal();
const setStatus: DealParties['setStatus'] = (...args) => parties.setStatus(...args);

/** The verification docs/audit-trail.md documents, written independently of the server's code. */
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

describe('POST /api/v1/deals/:id/cancel', () => {
  it('lets the buyer cancel a draft, and then nothing else', async () => {
    const dealId = await newDeal();
    const cancelled = await call('POST', `/api/v1/deals/${dealId}/cancel`, buyer.token, {
      reason: 'Changed my mind',
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ id: dealId, status: 'cancelled' });

    const again = await call('POST', `/api/v1/deals/${dealId}/cancel`, seller.token, { reason: 'Me too' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { status: 'cancelled', action: 'cancel', actor: 'seller' },
    });
    const terms = await call('PUT', `/api/v1/deals/${dealId}/terms`, seller.token, { asset_amount: '1' });
    expect(terms.statusCode).toBe(409);
    expect(terms.json().error.code).toBe('DEAL_NOT_ACTIVE');
    const read = (await call('GET', `/api/v1/deals/${dealId}`, seller.token)).json();
    expect(read).toMatchObject({ status: 'cancelled', asset_amount: '50000000' });
    expect(read.history.map((entry: { action: string }) => entry.action)).toEqual(['created', 'cancelled']);
  });

  it('lets the seller cancel once terms are agreed, but nobody after funding', async () => {
    const agreed = await newDeal();
    await setStatus(agreed, 'terms_agreed');
    const cancelled = await call('POST', `/api/v1/deals/${agreed}/cancel`, seller.token, {
      reason: 'No funds',
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().status).toBe('cancelled');

    const funded = await newDeal();
    await setStatus(funded, 'escrow_funded');
    const refused = await call('POST', `/api/v1/deals/${funded}/cancel`, buyer.token, { reason: 'Too late' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('INVALID_STATE_TRANSITION');
  });

  it('hides the deal from a stranger (404) and needs a reason (400)', async () => {
    const dealId = await newDeal();
    const stranger = await call('POST', `/api/v1/deals/${dealId}/cancel`, outsider.token, {
      reason: 'Mine now',
    });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error.code).toBe('NOT_FOUND');
    const blank = await call('POST', `/api/v1/deals/${dealId}/cancel`, buyer.token, { reason: '  ' });
    expect(blank.statusCode).toBe(400);
    const [stored] = await database.db.select().from(schema.deals).where(eq(schema.deals.id, dealId));
    expect(stored!.status).toBe('draft');
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, outsider.token)).statusCode;
    expect(audit).toBe(404);
  });

  it('lets exactly one of two simultaneous cancels win', async () => {
    const dealId = await newDeal();
    const responses = await Promise.all([
      call('POST', `/api/v1/deals/${dealId}/cancel`, buyer.token, { reason: 'Buyer quits' }),
      call('POST', `/api/v1/deals/${dealId}/cancel`, seller.token, { reason: 'Seller quits' }),
    ]);
    const codes = responses.map((response) => response.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    const loser = responses.find((response) => response.statusCode === 409)!;
    expect(loser.json().error.code).toBe('INVALID_STATE_TRANSITION');
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json();
    expect(audit.entries.map((entry: { action: string }) => entry.action)).toEqual(['created', 'cancelled']);
    expect(audit.verified).toBe(true);
  });

  it('reopens the negotiation when agreed terms change', async () => {
    const dealId = await newDeal();
    await setStatus(dealId, 'terms_agreed');
    const changed = await call('PUT', `/api/v1/deals/${dealId}/terms`, seller.token, {
      stable_amount: '31000000000',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().status).toBe('cis_submitted');
  });
});

describe('GET /api/v1/deals/:id/audit', () => {
  it('chains every event of the deal, verifiable from the documented canonical form', async () => {
    const dealId = await newDeal();
    await call('PUT', `/api/v1/deals/${dealId}/terms`, seller.token, {
      meeting_required: true,
      travel_location: 'Zug',
    });
    await call('POST', `/api/v1/deals/${dealId}/cancel`, buyer.token, { reason: 'Travel is too far' });
    const response = await call('GET', `/api/v1/deals/${dealId}/audit`, seller.token);
    expect(response.statusCode).toBe(200);
    const audit = response.json();
    expect(audit).toMatchObject({ deal_id: dealId, verified: true, broken_at_seq: null });
    expect(audit.entries).toMatchObject([
      {
        seq: 1,
        action: 'created',
        actor_id: buyer.id,
        payload: { buyer_id: buyer.id, seller_id: seller.id, terms: { asset_amount: '50000000' } },
        prev_hash: '0'.repeat(64),
      },
      {
        seq: 2,
        action: 'terms_proposed',
        actor_id: seller.id,
        payload: {
          changes: {
            meeting_required: { from: false, to: true },
            travel_location: { from: null, to: 'Zug' },
          },
        },
      },
      {
        seq: 3,
        action: 'cancelled',
        actor_id: buyer.id,
        payload: { reason: 'Travel is too far', from_status: 'draft', to_status: 'cancelled' },
      },
    ]);
    let prev = '0'.repeat(64);
    for (const entry of audit.entries) {
      const { seq, action, actor_id, payload, created_at } = entry;
      const content = canonical({ deal_id: dealId, seq, actor_id, action, payload, created_at });
      expect(entry.prev_hash).toBe(prev);
      expect(entry.hash).toBe(
        createHash('sha256')
          .update(prev + content)
          .digest('hex'),
      );
      prev = entry.hash;
    }
  });

  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    const dealId = await newDeal();
    const where = sql`deal_id = ${dealId}`;
    await expect(
      database.db.execute(sql`update deal_audit_entries set payload = '{}'::jsonb where ${where}`),
    ).rejects.toThrow();
    await expect(database.db.execute(sql`delete from deal_audit_entries where ${where}`)).rejects.toThrow();
    await expect(database.db.execute(sql`truncate deal_audit_entries`)).rejects.toThrow();
    const rows = await database.db
      .select()
      .from(schema.dealAuditEntries)
      .where(eq(schema.dealAuditEntries.dealId, dealId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toMatchObject({ buyer_id: buyer.id });
  });

  it('fails verification at an entry edited behind the application’s back', async () => {
    const dealId = await newDeal();
    await call('PUT', `/api/v1/deals/${dealId}/terms`, seller.token, { stable_amount: '31000000000' });
    await call('POST', `/api/v1/deals/${dealId}/cancel`, buyer.token, { reason: 'Price moved' });
    // As the table's owner (a superuser here), with the append-only trigger switched off.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table deal_audit_entries disable trigger deal_audit_entries_append_only`);
      await tx.execute(
        sql`update deal_audit_entries set payload = jsonb_set(payload, '{changes,stable_amount,to}', '"99000000000"') where deal_id = ${dealId} and seq = 2`,
      );
      await tx.execute(sql`alter table deal_audit_entries enable trigger deal_audit_entries_append_only`);
    });
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json();
    expect(audit.entries[1].payload.changes.stable_amount.to).toBe('99000000000');
    expect(audit).toMatchObject({ verified: false, broken_at_seq: 2 });

    const untouched = await newDeal();
    expect((await call('GET', `/api/v1/deals/${untouched}/audit`, buyer.token)).json().verified).toBe(true);
  });
});
