import { type Database, schema } from '@covenant/db';
import { and, asc, eq } from 'drizzle-orm';
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
let concierge: TestTrader;

beforeAll(async () => {
  parties = await startDealParties();
  ({ database, app, buyer, seller, outsider } = parties);
  concierge = await createTestTrader(app, { roles: ['concierge'] });
});
afterAll(async () => {
  await parties?.close();
});

function call(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) {
  return app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
}

/** A deal of 0.5 WBTC for 30 000 USDC on Ethereum whose terms require (or not) a meeting in Zurich. */
async function meetingDeal(meetingRequired = true): Promise<string> {
  const response = await call('POST', '/api/v1/deals', buyer.token, {
    asset_chain: 'ETH',
    asset_symbol: 'WBTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    counterparty_id: seller.id,
    meeting_required: meetingRequired,
    ...(meetingRequired ? { travel_location: 'Zurich, Paradeplatz' } : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

const hotel = {
  kind: 'hotel',
  traveller: 'seller',
  details: 'Two nights near Paradeplatz, 1–3 Dec.\nNon-smoking.',
};

async function auditActions(dealId: string) {
  const rows = await database.db
    .select()
    .from(schema.dealAuditEntries)
    .where(eq(schema.dealAuditEntries.dealId, dealId))
    .orderBy(asc(schema.dealAuditEntries.seq));
  return rows.map((row) => ({ action: row.action, actor: row.actorId, payload: row.payload }));
}

describe('POST /api/v1/deals/{id}/travel', () => {
  it('records a request by either party, in the audit trail, and notifies the other party', async () => {
    const dealId = await meetingDeal();
    const byBuyer = await call('POST', `/api/v1/deals/${dealId}/travel`, buyer.token, hotel);
    expect(byBuyer.statusCode, byBuyer.body).toBe(201);
    expect(byBuyer.json()).toMatchObject({
      deal_id: dealId,
      kind: 'hotel',
      traveller: 'seller',
      details: hotel.details,
      status: 'requested',
      requested_by: 'buyer',
      quote: null,
      approved_by: [],
      signing_payload: null,
      transaction_hash: null,
      booked_at: null,
    });
    const bySeller = await call('POST', `/api/v1/deals/${dealId}/travel`, seller.token, {
      kind: 'flight',
      traveller: 'buyer',
      details: '  ZRH ← LHR on 1 Dec, back 3 Dec  ',
    });
    expect(bySeller.statusCode, bySeller.body).toBe(201);
    expect(bySeller.json()).toMatchObject({
      requested_by: 'seller',
      details: 'ZRH ← LHR on 1 Dec, back 3 Dec',
    });

    const listed = await call('GET', `/api/v1/deals/${dealId}/travel`, seller.token);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((item: { id: string }) => item.id)).toEqual([
      byBuyer.json().id,
      bySeller.json().id,
    ]);

    const audit = (await auditActions(dealId)).filter((entry) => entry.action === 'travel_requested');
    expect(audit).toEqual([
      {
        action: 'travel_requested',
        actor: buyer.id,
        payload: {
          item_id: byBuyer.json().id,
          kind: 'hotel',
          traveller: 'seller',
          details: hotel.details,
          requested_by: 'buyer',
        },
      },
      expect.objectContaining({ actor: seller.id }),
    ]);
    const notified = await database.db
      .select()
      .from(schema.notifications)
      .where(and(eq(schema.notifications.dealId, dealId), eq(schema.notifications.kind, 'travel_requested')));
    expect(notified.map((row) => row.userId).sort()).toEqual([buyer.id, seller.id].sort());
    expect(notified.find((row) => row.userId === seller.id)?.title).toBe('Travel requested: a hotel');
  });

  it('answers 404 to anybody but the parties, staff included, and records nothing', async () => {
    const dealId = await meetingDeal();
    for (const stranger of [outsider, concierge]) {
      const response = await call('POST', `/api/v1/deals/${dealId}/travel`, stranger.token, hotel);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
      const listed = await call('GET', `/api/v1/deals/${dealId}/travel`, stranger.token);
      expect(listed.statusCode).toBe(404);
    }
    const rows = await database.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.dealId, dealId));
    expect(rows).toEqual([]);
  });

  it('refuses travel when the terms require no meeting, and on a completed, cancelled or disputed deal', async () => {
    const plain = await meetingDeal(false);
    const refused = await call('POST', `/api/v1/deals/${plain}/travel`, buyer.token, hotel);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'MEETING_NOT_REQUIRED',
      message: 'The terms of this deal do not require a meeting, so there is no travel',
    });
    for (const status of ['completed', 'cancelled', 'disputed'] as const) {
      const dealId = await meetingDeal();
      await parties.setStatus(dealId, status);
      const response = await call('POST', `/api/v1/deals/${dealId}/travel`, seller.token, hotel);
      expect(response.statusCode, status).toBe(409);
      expect(response.json().error).toMatchObject({ code: 'DEAL_NOT_ACTIVE', details: { status } });
    }
    for (const status of ['terms_agreed', 'escrow_funded'] as const) {
      const dealId = await meetingDeal();
      await parties.setStatus(dealId, status);
      const response = await call('POST', `/api/v1/deals/${dealId}/travel`, seller.token, hotel);
      expect(response.statusCode, status).toBe(201);
    }
  });

  it('refuses bad bodies with a 4xx and the field at fault', async () => {
    const dealId = await meetingDeal();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...hotel, kind: 'boat' }, 400, '/kind'],
      [{ ...hotel, traveller: 'mediator' }, 400, '/traveller'],
      [{ ...hotel, details: '   ' }, 400, '/details'],
      [{ ...hotel, details: 'x'.repeat(2001) }, 400, '/details'],
      [{ kind: 'hotel', traveller: 'buyer' }, 400, '/details'],
      [{ ...hotel, details: 'bell \u0007 ringing' }, 422, '/details'],
    ];
    for (const [body, status, path] of cases) {
      const response = await call('POST', `/api/v1/deals/${dealId}/travel`, buyer.token, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(JSON.stringify(response.json().error.details)).toContain(path);
    }
    const notUuid = await call('POST', '/api/v1/deals/not-a-deal/travel', buyer.token, hotel);
    expect(notUuid.statusCode).toBe(400);
    const rows = await database.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.dealId, dealId));
    expect(rows).toEqual([]);
  });
});

describe('POST /api/v1/deals/{id}/travel/{item_id}/cancel', () => {
  it('lets either party cancel while requested or quoted, and nobody once approved, paid or booked', async () => {
    const dealId = await meetingDeal();
    const requested = (await call('POST', `/api/v1/deals/${dealId}/travel`, buyer.token, hotel)).json();
    const cancelled = await call(
      'POST',
      `/api/v1/deals/${dealId}/travel/${requested.id}/cancel`,
      seller.token,
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ id: requested.id, status: 'cancelled' });
    const again = await call('POST', `/api/v1/deals/${dealId}/travel/${requested.id}/cancel`, buyer.token);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'CONFLICT', details: { status: 'cancelled' } });

    const quoted = (await call('POST', `/api/v1/deals/${dealId}/travel`, seller.token, hotel)).json();
    const quote = await call('POST', `/api/v1/staff/travel/${quoted.id}/quote`, concierge.token, {
      provider: 'Hotel Baur au Lac',
      description: 'Two nights, double room',
      amount: '980000000',
      payee_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const byBuyer = await call('POST', `/api/v1/deals/${dealId}/travel/${quoted.id}/cancel`, buyer.token);
    expect(byBuyer.statusCode).toBe(200);
    expect(byBuyer.json().status).toBe('cancelled');

    for (const status of ['approved', 'paid', 'booked'] as const) {
      const item = (await call('POST', `/api/v1/deals/${dealId}/travel`, buyer.token, hotel)).json();
      await database.db.update(schema.travelItems).set({ status }).where(eq(schema.travelItems.id, item.id));
      const refused = await call('POST', `/api/v1/deals/${dealId}/travel/${item.id}/cancel`, buyer.token);
      expect(refused.statusCode, status).toBe(409);
      expect(refused.json().error.details).toMatchObject({ reason: 'travel_status', status });
    }

    const audit = (await auditActions(dealId)).filter((entry) => entry.action === 'travel_cancelled');
    expect(audit).toEqual([
      {
        action: 'travel_cancelled',
        actor: seller.id,
        payload: { item_id: requested.id, kind: 'hotel', from_status: 'requested', cancelled_by: 'seller' },
      },
      {
        action: 'travel_cancelled',
        actor: buyer.id,
        payload: { item_id: quoted.id, kind: 'hotel', from_status: 'quoted', cancelled_by: 'buyer' },
      },
    ]);
  });

  it('answers 404 for an item of another deal, an unknown item, and a stranger', async () => {
    const dealId = await meetingDeal();
    const other = await meetingDeal();
    const item = (await call('POST', `/api/v1/deals/${dealId}/travel`, buyer.token, hotel)).json();
    for (const [url, token] of [
      [`/api/v1/deals/${other}/travel/${item.id}/cancel`, buyer.token],
      [`/api/v1/deals/${dealId}/travel/${crypto.randomUUID()}/cancel`, buyer.token],
      [`/api/v1/deals/${dealId}/travel/${item.id}/cancel`, outsider.token],
    ] as const) {
      const response = await call('POST', url, token);
      expect(response.statusCode, url).toBe(404);
    }
    const [row] = await database.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.id, item.id));
    expect(row!.status).toBe('requested');
  });
});

describe('travel of a cancelled deal', () => {
  it('is cancelled with the deal while requested or quoted, audited without notifying anybody twice', async () => {
    const dealId = await meetingDeal();
    const requested = (await call('POST', `/api/v1/deals/${dealId}/travel`, buyer.token, hotel)).json();
    const quoted = (await call('POST', `/api/v1/deals/${dealId}/travel`, seller.token, hotel)).json();
    const quote = await call('POST', `/api/v1/staff/travel/${quoted.id}/quote`, concierge.token, {
      provider: 'Hotel Baur au Lac',
      description: 'Two nights',
      amount: '980000000',
      payee_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    expect(quote.statusCode, quote.body).toBe(200);
    const approved = (await call('POST', `/api/v1/deals/${dealId}/travel`, buyer.token, hotel)).json();
    await database.db
      .update(schema.travelItems)
      .set({ status: 'approved' })
      .where(eq(schema.travelItems.id, approved.id));

    const cancelled = await call('POST', `/api/v1/deals/${dealId}/cancel`, seller.token, {
      reason: 'Prices moved',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const listed = (await call('GET', `/api/v1/deals/${dealId}/travel`, buyer.token)).json().data;
    expect(listed.map((item: { id: string; status: string }) => [item.id, item.status])).toEqual([
      [requested.id, 'cancelled'],
      [quoted.id, 'cancelled'],
      [approved.id, 'approved'],
    ]);
    const audit = (await auditActions(dealId)).filter((entry) => entry.action === 'travel_cancelled');
    expect(audit).toEqual([
      {
        action: 'travel_cancelled',
        actor: seller.id,
        payload: { item_id: requested.id, kind: 'hotel', reason: 'deal_cancelled' },
      },
      {
        action: 'travel_cancelled',
        actor: seller.id,
        payload: { item_id: quoted.id, kind: 'hotel', reason: 'deal_cancelled' },
      },
    ]);
    const notified = await database.db
      .select()
      .from(schema.notifications)
      .where(and(eq(schema.notifications.dealId, dealId), eq(schema.notifications.kind, 'travel_cancelled')));
    expect(notified).toEqual([]);
  });
});

describe('GET /api/v1/deals/{id}/travel/{item_id}/file', () => {
  it('gives the parties the concierge’s file, decrypted, and nobody else', async () => {
    const dealId = await meetingDeal();
    const item = (await call('POST', `/api/v1/deals/${dealId}/travel`, buyer.token, hotel)).json();
    const url = `/api/v1/deals/${dealId}/travel/${item.id}/file`;
    const none = await call('GET', url, buyer.token);
    expect(none.statusCode).toBe(404);

    const pdf = Buffer.from('%PDF-1.4\n% booking BAUR-1234\n%%EOF\n');
    const body = new FormData();
    body.append('file', new Blob([pdf], { type: 'application/pdf' }), 'booking.pdf');
    const attached = await app.inject({
      method: 'POST',
      url: `/api/v1/staff/travel/${item.id}/file`,
      payload: body,
      headers: { authorization: `Bearer ${concierge.token}` },
    });
    expect(attached.statusCode, attached.body).toBe(200);

    for (const party of [buyer, seller]) {
      const response = await call('GET', url, party.token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe('attachment; filename="booking.pdf"');
      expect(response.rawPayload.equals(pdf)).toBe(true);
    }
    expect((await call('GET', url, outsider.token)).statusCode).toBe(404);
    const other = await meetingDeal();
    expect((await call('GET', `/api/v1/deals/${other}/travel/${item.id}/file`, buyer.token)).statusCode).toBe(
      404,
    );
  });
});
