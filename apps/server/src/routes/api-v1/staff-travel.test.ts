import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
let concierge: TestTrader;

beforeAll(async () => {
  parties = await startDealParties();
  ({ database, app, buyer, seller } = parties);
  concierge = await createTestTrader(app, { roles: ['concierge'] });
});
afterAll(async () => {
  await parties?.close();
});

function call(
  method: 'GET' | 'POST',
  url: string,
  token: string,
  payload?: Record<string, unknown> | FormData,
) {
  return app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
}

const ethPayee = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const quote = {
  provider: 'Hotel Baur au Lac',
  description: 'Two nights, double room, breakfast included',
  amount: '980000000',
  payee_address: ethPayee,
};

/** A deal requiring a meeting in Zurich (stable leg: `stableSymbol` on `stableChain`) and one hotel request for the seller. */
async function requestedItem(
  stable: { chain: 'ETH' | 'SOL'; symbol: 'USDC' | 'USDT' } = { chain: 'ETH', symbol: 'USDC' },
): Promise<{ dealId: string; itemId: string }> {
  const created = await call('POST', '/api/v1/deals', buyer.token, {
    asset_chain: 'ETH',
    asset_symbol: 'WBTC',
    asset_amount: '50000000',
    stable_chain: stable.chain,
    stable_symbol: stable.symbol,
    stable_amount: '30000000000',
    counterparty_id: seller.id,
    meeting_required: true,
    travel_location: 'Zurich, Paradeplatz',
  });
  expect(created.statusCode, created.body).toBe(201);
  const dealId: string = created.json().id;
  const item = await call('POST', `/api/v1/deals/${dealId}/travel`, buyer.token, {
    kind: 'hotel',
    traveller: 'seller',
    details: 'Two nights near Paradeplatz',
  });
  expect(item.statusCode, item.body).toBe(201);
  return { dealId, itemId: item.json().id };
}

function fileForm(content: Buffer, name = 'quote.pdf', field = 'file') {
  const body = new FormData();
  body.append(field, new Blob([content], { type: 'application/pdf' }), name);
  return body;
}

async function auditOf(dealId: string, action: string) {
  const rows = await database.db
    .select()
    .from(schema.dealAuditEntries)
    .where(and(eq(schema.dealAuditEntries.dealId, dealId), eq(schema.dealAuditEntries.action, action)))
    .orderBy(asc(schema.dealAuditEntries.seq));
  return rows.map((row) => ({ actor: row.actorId, payload: row.payload }));
}

describe('/api/v1/staff/travel guard', () => {
  it('answers 403 to traders, other staff and a concierge without a second factor; 401 anonymously', async () => {
    const { itemId } = await requestedItem();
    const mediator = await createTestTrader(app, { roles: ['mediator'] });
    const admin = await createTestTrader(app, { roles: ['admin', 'compliance'] });
    const aal1 = await createTestTrader(app, { roles: ['concierge'], aal: 'aal1' });
    const routes: ['GET' | 'POST', string, Record<string, unknown>?][] = [
      ['GET', '/api/v1/staff/travel'],
      ['POST', `/api/v1/staff/travel/${itemId}/quote`, quote],
      ['GET', `/api/v1/staff/travel/${itemId}/file`],
      ['POST', `/api/v1/staff/travel/${itemId}/booked`],
    ];
    for (const [method, url, payload] of routes) {
      for (const caller of [buyer, seller, mediator, admin]) {
        const response = await call(method, url, caller.token, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json().error.code).toBe('FORBIDDEN');
      }
      const weak = await call(method, url, aal1.token, payload);
      expect(weak.statusCode).toBe(403);
      expect(weak.json().error.details).toEqual({ required_aal: 'aal2' });
      expect((await app.inject({ method, url, payload })).statusCode).toBe(401);
    }
    const [row] = await database.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.id, itemId));
    expect(row).toMatchObject({ status: 'requested', quoteVersion: 0 });
  });
});

describe('GET /api/v1/staff/travel', () => {
  it('lists requested and quoted items first, oldest first, with the deal, its stable leg, the place and the traveller', async () => {
    const first = await requestedItem();
    const second = await requestedItem({ chain: 'SOL', symbol: 'USDT' });
    const third = await requestedItem();
    await database.db
      .update(schema.travelItems)
      .set({ status: 'booked' })
      .where(eq(schema.travelItems.id, first.itemId));
    const response = await call('GET', '/api/v1/staff/travel', concierge.token);
    expect(response.statusCode, response.body).toBe(200);
    const ids = response.json().data.map((item: { id: string }) => item.id);
    const order = [second.itemId, third.itemId, first.itemId].map((id) => ids.indexOf(id));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Open items before every closed one.
    const statuses: string[] = response.json().data.map((item: { status: string }) => item.status);
    const lastOpen = statuses.findLastIndex((status) => ['requested', 'quoted'].includes(status));
    const firstClosed = statuses.findIndex((status) => !['requested', 'quoted'].includes(status));
    expect(firstClosed === -1 || lastOpen < firstClosed).toBe(true);

    const row = response.json().data.find((item: { id: string }) => item.id === second.itemId);
    expect(row).toMatchObject({
      deal_id: second.dealId,
      status: 'requested',
      kind: 'hotel',
      traveller: 'seller',
      requested_by: 'buyer',
      traveller_username: seller.username,
      deal: {
        id: second.dealId,
        status: 'draft',
        stable_chain: 'SOL',
        stable_symbol: 'USDT',
        travel_location: 'Zurich, Paradeplatz',
      },
    });

    // Without a travel location, the place is the location of the meeting the terms carry.
    await database.db
      .update(schema.deals)
      .set({ travelLocation: null, meeting: { location: 'Geneva, Hotel des Bergues', latitude: 46.2 } })
      .where(eq(schema.deals.id, third.dealId));
    const again = await call('GET', '/api/v1/staff/travel?status=requested', concierge.token);
    const fromMeeting = again.json().data.find((item: { id: string }) => item.id === third.itemId);
    expect(fromMeeting.deal.travel_location).toBe('Geneva, Hotel des Bergues');

    const booked = await call('GET', '/api/v1/staff/travel?status=booked', concierge.token);
    expect(booked.json().data.map((item: { status: string }) => item.status)).toEqual(['booked']);
    expect((await call('GET', '/api/v1/staff/travel?status=lost', concierge.token)).statusCode).toBe(400);
    expect((await call('GET', '/api/v1/staff/travel?limit=0', concierge.token)).statusCode).toBe(400);
  });
});

describe('POST /api/v1/staff/travel/{item_id}/quote', () => {
  it('quotes in the stable token, re-quotes with a new version, audits each and notifies both parties', async () => {
    const { dealId, itemId } = await requestedItem();
    const first = await call('POST', `/api/v1/staff/travel/${itemId}/quote`, concierge.token, quote);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      status: 'quoted',
      quote: {
        version: 1,
        provider: quote.provider,
        description: quote.description,
        amount: '980000000',
        symbol: 'USDC',
        chain: 'ETH',
        payee_address: ethPayee,
        has_file: false,
      },
      approved_by: [],
    });
    // An approval of version 1 stops counting once the price changes.
    await database.db
      .insert(schema.travelItemApprovals)
      .values({ itemId, quoteVersion: 1, party: 'buyer', userId: buyer.id });
    const listed = await call('GET', `/api/v1/deals/${dealId}/travel`, seller.token);
    expect(listed.json().data[0]).toMatchObject({ approved_by: ['buyer'], quote: { version: 1 } });

    const second = await call('POST', `/api/v1/staff/travel/${itemId}/quote`, concierge.token, {
      ...quote,
      amount: '1050000000',
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({
      status: 'quoted',
      approved_by: [],
      quote: { version: 2, amount: '1050000000' },
    });
    const [row] = await database.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.id, itemId));
    expect(row).toMatchObject({ quoteVersion: 2, quotedBy: concierge.id, quoteAmount: '1050000000' });

    expect(await auditOf(dealId, 'travel_quoted')).toEqual([
      {
        actor: concierge.id,
        payload: {
          item_id: itemId,
          kind: 'hotel',
          version: 1,
          provider: quote.provider,
          description: quote.description,
          amount: '980000000',
          symbol: 'USDC',
          chain: 'ETH',
          payee_address: ethPayee,
        },
      },
      { actor: concierge.id, payload: expect.objectContaining({ version: 2, amount: '1050000000' }) },
    ]);
    const notified = await database.db
      .select()
      .from(schema.notifications)
      .where(and(eq(schema.notifications.dealId, dealId), eq(schema.notifications.kind, 'travel_quoted')));
    expect(notified.filter((row) => row.userId === buyer.id)).toHaveLength(2);
    expect(notified.filter((row) => row.userId === seller.id)).toHaveLength(2);
    expect(notified[0]!.body).toContain('980 USDC');
  });

  it('checks the payee address for the stable chain and refuses bad amounts and bodies with a 4xx', async () => {
    const { itemId } = await requestedItem();
    const url = `/api/v1/staff/travel/${itemId}/quote`;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...quote, payee_address: '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }, 400, 'payee_address'],
      [{ ...quote, payee_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }, 400, 'payee_address'],
      [{ ...quote, payee_address: `0x${'0'.repeat(40)}` }, 400, 'payee_address'],
      [{ ...quote, amount: '0' }, 400, '/amount'],
      [{ ...quote, amount: '-5' }, 400, '/amount'],
      [{ ...quote, amount: '12.5' }, 400, '/amount'],
      [{ ...quote, amount: 5 }, 400, '/amount'],
      [{ ...quote, amount: '0012' }, 400, '/amount'],
      [{ ...quote, provider: '' }, 400, '/provider'],
      [{ ...quote, provider: 'Two\nlines' }, 422, '/provider'],
      [{ ...quote, description: 'x'.repeat(2001) }, 400, '/description'],
      [{ provider: 'x', description: 'y', amount: '1' }, 400, '/payee_address'],
    ];
    for (const [body, status, field] of cases) {
      const response = await call('POST', url, concierge.token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(JSON.stringify(response.json().error.details)).toContain(field);
    }
    const unknown = await call('POST', `/api/v1/staff/travel/${randomUUID()}/quote`, concierge.token, quote);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
    expect((await call('POST', '/api/v1/staff/travel/nope/quote', concierge.token, quote)).statusCode).toBe(
      400,
    );
    const [row] = await database.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.id, itemId));
    expect(row).toMatchObject({ status: 'requested', quoteVersion: 0, quoteAmount: null });
  });

  it('takes a Solana address on a Solana stable leg, and refuses an Ethereum one there', async () => {
    const { itemId } = await requestedItem({ chain: 'SOL', symbol: 'USDC' });
    const url = `/api/v1/staff/travel/${itemId}/quote`;
    const wrong = await call('POST', url, concierge.token, quote);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details.fields.payee_address).toContain('(SOL)');
    const solana = await call('POST', url, concierge.token, {
      ...quote,
      payee_address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
    });
    expect(solana.statusCode, solana.body).toBe(200);
    expect(solana.json().quote).toMatchObject({ chain: 'SOL', symbol: 'USDC', version: 1 });
  });

  it('quotes only requested or quoted items of a deal that goes on', async () => {
    for (const status of ['approved', 'paid', 'booked', 'cancelled'] as const) {
      const { itemId } = await requestedItem();
      await database.db.update(schema.travelItems).set({ status }).where(eq(schema.travelItems.id, itemId));
      const response = await call('POST', `/api/v1/staff/travel/${itemId}/quote`, concierge.token, quote);
      expect(response.statusCode, status).toBe(409);
      expect(response.json().error.details).toMatchObject({ reason: 'travel_status', status });
    }
    const { dealId, itemId } = await requestedItem();
    await parties.setStatus(dealId, 'cancelled');
    const closed = await call('POST', `/api/v1/staff/travel/${itemId}/quote`, concierge.token, quote);
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error.code).toBe('DEAL_NOT_ACTIVE');
  });
});

describe('POST /api/v1/staff/travel/{item_id}/booked', () => {
  it('marks booked only a paid item, with an audit entry by the concierge', async () => {
    const { dealId, itemId } = await requestedItem();
    const url = `/api/v1/staff/travel/${itemId}/booked`;
    for (const status of ['requested', 'quoted', 'approved', 'cancelled', 'booked'] as const) {
      await database.db.update(schema.travelItems).set({ status }).where(eq(schema.travelItems.id, itemId));
      const refused = await call('POST', url, concierge.token);
      expect(refused.statusCode, status).toBe(409);
      expect(refused.json().error).toMatchObject({ code: 'CONFLICT', details: { status } });
    }
    expect(await auditOf(dealId, 'travel_booked')).toEqual([]);

    // Paid: what the payout flow sets once the provider's payout confirmed on-chain.
    await database.db
      .update(schema.travelItems)
      .set({ status: 'paid' })
      .where(eq(schema.travelItems.id, itemId));
    const booked = await call('POST', url, concierge.token);
    expect(booked.statusCode, booked.body).toBe(200);
    expect(booked.json()).toMatchObject({ status: 'booked', booked_at: expect.any(String) });
    const [row] = await database.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.id, itemId));
    expect(row).toMatchObject({ status: 'booked', bookedBy: concierge.id });
    expect(await auditOf(dealId, 'travel_booked')).toEqual([
      { actor: concierge.id, payload: { item_id: itemId, kind: 'hotel', provider: null } },
    ]);
    expect(
      (await call('POST', `/api/v1/staff/travel/${randomUUID()}/booked`, concierge.token)).statusCode,
    ).toBe(404);
  });
});

describe('POST /api/v1/staff/travel/{item_id}/file', () => {
  const pdf = Buffer.from('%PDF-1.4\n% BOOKING-REF-BAUR-88231\n%%EOF\n');

  it('stores one PDF, PNG or JPEG encrypted, shows it on the quote and serves it to the concierge', async () => {
    const { dealId, itemId } = await requestedItem();
    const attached = await call(
      'POST',
      `/api/v1/staff/travel/${itemId}/file`,
      concierge.token,
      fileForm(pdf),
    );
    expect(attached.statusCode, attached.body).toBe(200);
    const quoted = await call('POST', `/api/v1/staff/travel/${itemId}/quote`, concierge.token, quote);
    expect(quoted.json().quote.has_file).toBe(true);

    const [row] = await database.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.id, itemId));
    const [file] = await database.db
      .select()
      .from(schema.storedFiles)
      .where(eq(schema.storedFiles.id, row!.quoteFileId!));
    expect(file).toMatchObject({
      purpose: 'travel_quote',
      contentType: 'application/pdf',
      ownerId: concierge.id,
    });
    // Encrypted at rest: the plaintext is nowhere in the data directory's files.
    const directory = join(app.config.dataDir, 'files');
    const stored = await readFile(join(directory, file!.id));
    expect(stored.includes('BOOKING-REF-BAUR-88231')).toBe(false);
    expect((await readdir(directory)).includes(file!.id)).toBe(true);

    const download = await call('GET', `/api/v1/staff/travel/${itemId}/file`, concierge.token);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['cache-control']).toBe('private, no-store');
    expect(download.rawPayload.equals(pdf)).toBe(true);
    expect(await auditOf(dealId, 'travel_file_attached')).toEqual([
      {
        actor: concierge.id,
        payload: { item_id: itemId, filename: 'quote.pdf', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      },
    ]);
  });

  it('refuses other content, other fields, no file, JSON, a cancelled item and an unknown one', async () => {
    const { itemId } = await requestedItem();
    const url = `/api/v1/staff/travel/${itemId}/file`;
    const text = await call('POST', url, concierge.token, fileForm(Buffer.from('just text'), 'note.pdf'));
    expect(text.statusCode).toBe(400);
    expect(text.json().error.message).toBe('The file must be a PDF, PNG or JPEG file');
    const wrongField = await call('POST', url, concierge.token, fileForm(pdf, 'quote.pdf', 'evidence'));
    expect(wrongField.statusCode).toBe(400);
    const empty = new FormData();
    empty.append('note', 'no file here');
    expect((await call('POST', url, concierge.token, empty)).statusCode).toBe(400);
    const two = fileForm(pdf);
    two.append('file', new Blob([pdf]), 'second.pdf');
    expect((await call('POST', url, concierge.token, two)).statusCode).toBe(400);
    expect((await call('POST', url, concierge.token, { file: 'x' })).statusCode).toBe(400);
    const big = Buffer.concat([pdf, Buffer.alloc(10 * 1024 * 1024)]);
    const tooLarge = await call('POST', url, concierge.token, fileForm(big));
    expect(tooLarge.statusCode).toBe(413);
    const unknown = await call(
      'POST',
      `/api/v1/staff/travel/${randomUUID()}/file`,
      concierge.token,
      fileForm(pdf),
    );
    expect(unknown.statusCode).toBe(404);

    await database.db
      .update(schema.travelItems)
      .set({ status: 'cancelled' })
      .where(eq(schema.travelItems.id, itemId));
    const before = await database.db
      .select()
      .from(schema.storedFiles)
      .where(eq(schema.storedFiles.purpose, 'travel_quote'));
    const cancelled = await call('POST', url, concierge.token, fileForm(pdf));
    expect(cancelled.statusCode).toBe(409);
    const after = await database.db
      .select()
      .from(schema.storedFiles)
      .where(eq(schema.storedFiles.purpose, 'travel_quote'));
    expect(after).toHaveLength(before.length);
    const [row] = await database.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.id, itemId));
    expect(row!.quoteFileId).toBeNull();
    expect((await call('GET', url, concierge.token)).statusCode).toBe(404);
  });
});
