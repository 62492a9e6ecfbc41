import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Database, schema } from '@covenant/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTrader } from '../../testing/create-test-trader.js';
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

// The marker makes the PDF's plaintext easy to look for on disk.
const pdfMarker = 'SIGNED-CIS-MARKER-7781';
const pdf = Buffer.from(`%PDF-1.7\n% ${pdfMarker}\n%%EOF\n`);

const sheetFields = {
  legal_name: 'Aurelia Holdings Ltd',
  entity_type: 'company',
  jurisdiction: 'CH',
  source_of_funds: 'Retained trading profits',
  assets: ['USDC', 'BTC'],
  size_min_usd: 1_000_000,
  size_max_usd: 10_000_000,
  preferred_chains: ['ETH', 'BTC'],
  settlement_window_hours: 72,
};

/** The fields as multipart sends them (numbers as text, lists repeated) and the PDF as `file`. */
function form(
  fields: Record<string, string | number | string[]>,
  file?: { name: string; content: Buffer },
  fileField = 'file',
) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, String(item));
  }
  if (file) body.append(fileField, new Blob([file.content], { type: 'application/pdf' }), file.name);
  return body;
}

function call(
  method: 'GET' | 'POST',
  url: string,
  token: string,
  payload?: Record<string, unknown> | FormData,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method,
    url: `/api/v1${url}`,
    payload,
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
}

async function uploadSheet(owner: TestTrader, legalName = sheetFields.legal_name): Promise<string> {
  const response = await call('POST', '/cis', owner.token, { ...sheetFields, legal_name: legalName });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function newDeal(): Promise<string> {
  const response = await call('POST', '/deals', buyer.token, {
    asset_chain: 'ETH',
    asset_symbol: 'WBTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    counterparty_id: seller.id,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

/** A draft deal on which both parties attached a sheet; the buyer's has a PDF. */
async function dealWithBothSheets() {
  const dealId = await newDeal();
  const upload = await call(
    'POST',
    '/cis',
    buyer.token,
    form(sheetFields, { name: 'buyer.pdf', content: pdf }),
  );
  expect(upload.statusCode, upload.body).toBe(201);
  const buyerCis = upload.json().id as string;
  const sellerCis = await uploadSheet(seller, 'Selma Seller');
  expect((await call('POST', `/deals/${dealId}/cis`, buyer.token, { cis_id: buyerCis })).statusCode).toBe(
    200,
  );
  expect((await call('POST', `/deals/${dealId}/cis`, seller.token, { cis_id: sellerCis })).statusCode).toBe(
    200,
  );
  return { dealId, buyerCis, sellerCis };
}

async function auditOf(dealId: string) {
  const response = await call('GET', `/deals/${dealId}/audit`, buyer.token);
  expect(response.statusCode).toBe(200);
  return response.json() as {
    verified: boolean;
    entries: { action: string; actor_id: string; payload: object }[];
  };
}

describe('POST /api/v1/cis and GET /api/v1/cis', () => {
  it('stores a multipart sheet with its PDF and a JSON one, and lists only the caller’s, newest first', async () => {
    const multipart = await call(
      'POST',
      '/cis',
      outsider.token,
      form(sheetFields, { name: 'cis.pdf', content: pdf }),
    );
    expect(multipart.statusCode, multipart.body).toBe(201);
    expect(multipart.json()).toEqual({
      id: expect.any(String),
      legal_name: 'Aurelia Holdings Ltd',
      entity_type: 'company',
      jurisdiction: 'CH',
      source_of_funds: 'Retained trading profits',
      // Lists come back once each, in the product's order; multipart's digits come back as numbers.
      assets: ['BTC', 'USDC'],
      size_min_usd: 1_000_000,
      size_max_usd: 10_000_000,
      preferred_chains: ['BTC', 'ETH'],
      settlement_window_hours: 72,
      has_pdf: true,
      created_at: expect.any(String),
    });
    const json = await call('POST', '/cis', outsider.token, {
      ...sheetFields,
      legal_name: '  Second Sheet ',
      jurisdiction: 'gb',
      size_min_usd: 0,
      size_max_usd: 0,
      settlement_window_hours: 168,
    });
    expect(json.statusCode, json.body).toBe(201);
    expect(json.json()).toMatchObject({
      legal_name: 'Second Sheet',
      jurisdiction: 'GB',
      size_min_usd: 0,
      size_max_usd: 0,
      settlement_window_hours: 168,
      has_pdf: false,
    });
    await uploadSheet(seller, 'Somebody Else');

    const listed = await call('GET', '/cis', outsider.token);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((sheet: { id: string }) => sheet.id)).toEqual([
      json.json().id,
      multipart.json().id,
    ]);
    expect(listed.json().data[1]).toEqual(multipart.json());

    const download = await call('GET', `/cis/${multipart.json().id}/pdf`, outsider.token);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.equals(pdf)).toBe(true);
    expect((await call('GET', `/cis/${multipart.json().id}/pdf`, seller.token)).statusCode).toBe(404);
    expect((await call('GET', `/cis/${json.json().id}/pdf`, outsider.token)).statusCode).toBe(404);
  });

  it('keeps the form and the PDF encrypted at rest', async () => {
    const response = await call(
      'POST',
      '/cis',
      buyer.token,
      form(sheetFields, { name: 'cis.pdf', content: pdf }),
    );
    expect(response.statusCode).toBe(201);
    const [sheet] = await database.db
      .select()
      .from(schema.cisSheets)
      .where(eq(schema.cisSheets.id, response.json().id));
    const files = await database.db
      .select()
      .from(schema.storedFiles)
      .where(inArray(schema.storedFiles.id, [sheet!.formFileId, sheet!.pdfFileId!]));
    expect(files.map((file) => file.purpose).sort()).toEqual(['cis_form', 'cis_pdf']);
    for (const file of files) {
      const onDisk = await readFile(join(app.config.dataDir, 'files', file.id));
      expect(onDisk.length).toBe(file.size);
      expect(onDisk.includes(Buffer.from('Aurelia'))).toBe(false);
      expect(onDisk.includes(Buffer.from('Retained trading'))).toBe(false);
      expect(onDisk.includes(Buffer.from(pdfMarker))).toBe(false);
      expect(onDisk.includes(Buffer.from('%PDF-'))).toBe(false);
    }
  });

  it('refuses a file that is not a PDF, an invalid form and other file fields, storing nothing', async () => {
    const before = await database.db
      .select()
      .from(schema.cisSheets)
      .where(eq(schema.cisSheets.ownerId, seller.id));
    const fake = await call(
      'POST',
      '/cis',
      seller.token,
      form(sheetFields, { name: 'cis.pdf', content: Buffer.from('<html>%PDF-1.7</html>') }),
    );
    expect(fake.statusCode).toBe(400);
    expect(fake.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: [{ path: '/file' }] },
    });

    const invalid = await call('POST', '/cis', seller.token, {
      ...sheetFields,
      entity_type: 'trust',
      jurisdiction: 'UK',
      preferred_chains: [],
      assets: ['DOGE'],
      settlement_window_hours: 169,
    });
    expect(invalid.statusCode).toBe(400);
    const paths = invalid.json().error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/entity_type',
        '/jurisdiction',
        '/preferred_chains',
        '/assets/0',
        '/settlement_window_hours',
      ]),
    );

    // A maximum below the minimum is refused on size_max_usd, in JSON and in multipart alike.
    const backwards = { ...sheetFields, size_min_usd: 10_000_001 };
    for (const payload of [backwards, form(backwards)]) {
      const refused = await call('POST', '/cis', seller.token, payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.details.issues).toEqual([
        { path: '/size_max_usd', message: 'The maximum trade size must be at least the minimum' },
      ]);
    }

    // JSON takes numbers only; multipart takes decimal digits only.
    const textInJson = await call('POST', '/cis', seller.token, { ...sheetFields, size_min_usd: '1000000' });
    expect(textInJson.statusCode).toBe(400);
    expect(textInJson.json().error.details.issues[0].path).toBe('/size_min_usd');
    const notDigits = await call(
      'POST',
      '/cis',
      seller.token,
      form({ ...sheetFields, size_min_usd: '1e6', settlement_window_hours: '24.0' }),
    );
    expect(notDigits.statusCode).toBe(400);
    expect(notDigits.json().error.details.issues.map((issue: { path: string }) => issue.path)).toEqual([
      '/size_min_usd',
      '/settlement_window_hours',
    ]);

    const other = await call(
      'POST',
      '/cis',
      seller.token,
      form(sheetFields, { name: 'passport.pdf', content: pdf }, 'passport'),
    );
    expect(other.statusCode).toBe(400);
    expect(other.json().error.details.issues[0].path).toBe('/passport');
    const tooLarge = await call(
      'POST',
      '/cis',
      seller.token,
      form(sheetFields, { name: 'big.pdf', content: Buffer.concat([pdf, Buffer.alloc(10 * 1024 * 1024)]) }),
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error.details.issues[0].path).toBe('/file');
    // The signed PDF travels as `file`; the earlier name is not taken.
    const oldName = await call(
      'POST',
      '/cis',
      seller.token,
      form(sheetFields, { name: 'cis.pdf', content: pdf }, 'pdf'),
    );
    expect(oldName.statusCode).toBe(400);
    expect(oldName.json().error.details.issues[0]).toEqual({
      path: '/pdf',
      message: 'Send the signed PDF in the file field',
    });

    const after = await database.db
      .select()
      .from(schema.cisSheets)
      .where(eq(schema.cisSheets.ownerId, seller.id));
    expect(after.length).toBe(before.length);
  });

  it('replays a multipart upload under the same Idempotency-Key and refuses another PDF under it', async () => {
    const send = (content: Buffer) =>
      call('POST', '/cis', seller.token, form(sheetFields, { name: 'cis.pdf', content }), {
        'idempotency-key': 'cis-upload-1',
      });
    const first = await send(pdf);
    expect(first.statusCode).toBe(201);
    const retry = await send(pdf);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    const other = await send(Buffer.concat([pdf, Buffer.from('%')]));
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const mine = (await call('GET', '/cis', seller.token)).json().data as { id: string }[];
    expect(mine.filter((sheet) => sheet.id === first.json().id)).toHaveLength(1);
  });
});

describe('CIS exchange on a deal', () => {
  it('lets each party attach its own sheet only, and shows the other’s only once both attached', async () => {
    const dealId = await newDeal();
    const sellersSheet = await uploadSheet(seller, 'Selma Seller');
    const stolen = await call('POST', `/deals/${dealId}/cis`, buyer.token, { cis_id: sellersSheet });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().error.code).toBe('NOT_FOUND');

    const empty = await call('GET', `/deals/${dealId}/cis`, seller.token);
    expect(empty.json()).toEqual({ buyer: null, seller: null });

    const upload = await call(
      'POST',
      '/cis',
      buyer.token,
      form({ ...sheetFields, legal_name: 'Bruno Buyer' }, { name: 'buyer.pdf', content: pdf }),
    );
    expect(upload.statusCode, upload.body).toBe(201);
    const buyersSheet = upload.json().id as string;
    const attached = await call('POST', `/deals/${dealId}/cis`, buyer.token, { cis_id: buyersSheet });
    expect(attached.statusCode, attached.body).toBe(200);
    expect(attached.json()).toMatchObject({
      buyer: { cis: { id: buyersSheet, legal_name: 'Bruno Buyer' }, status: 'pending', review_comment: null },
      seller: null,
    });

    // The seller has attached nothing: the buyer's sheet, its PDF and a verdict on it are out of reach,
    // even with its id (which the deal's history shows).
    const hidden = await call('GET', `/deals/${dealId}/cis`, seller.token);
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json()).toEqual({ buyer: null, seller: null });
    const hiddenPdf = await call('GET', `/deals/${dealId}/cis/buyer/pdf`, seller.token);
    expect(hiddenPdf.statusCode).toBe(404);
    expect(hiddenPdf.json().error.code).toBe('NOT_FOUND');
    const early = await call('POST', `/deals/${dealId}/cis/approve`, seller.token, { cis_id: buyersSheet });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatchObject({
      code: 'CONFLICT',
      message: 'Attach your own CIS before reviewing the other party’s',
      details: { reason: 'own_cis_missing' },
    });
    expect((await call('GET', `/deals/${dealId}/cis`, buyer.token)).json().buyer.status).toBe('pending');

    // Once the seller attaches its own, the exchange is open both ways.
    const exchanged = await call('POST', `/deals/${dealId}/cis`, seller.token, { cis_id: sellersSheet });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const seen = await call('GET', `/deals/${dealId}/cis`, seller.token);
    expect(seen.json().buyer.cis).toMatchObject({
      legal_name: 'Bruno Buyer',
      source_of_funds: 'Retained trading profits',
    });
    const seenPdf = await call('GET', `/deals/${dealId}/cis/buyer/pdf`, seller.token);
    expect(seenPdf.statusCode).toBe(200);
    expect(seenPdf.rawPayload.equals(pdf)).toBe(true);
    const theirs = await call('GET', `/deals/${dealId}/cis`, buyer.token);
    expect(theirs.json().seller.cis).toMatchObject({ legal_name: 'Selma Seller' });
    const audit = await auditOf(dealId);
    expect(audit.entries.at(-1)).toMatchObject({
      action: 'cis_attached',
      actor_id: seller.id,
      payload: { party: 'seller', cis_id: sellersSheet },
    });
  });

  it('answers a review before the counterparty attached with cis_missing', async () => {
    const dealId = await newDeal();
    const buyersSheet = await uploadSheet(buyer, 'Bruno Buyer');
    expect(
      (await call('POST', `/deals/${dealId}/cis`, buyer.token, { cis_id: buyersSheet })).statusCode,
    ).toBe(200);
    const early = await call('POST', `/deals/${dealId}/cis/approve`, buyer.token, { cis_id: buyersSheet });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatchObject({ code: 'CONFLICT', details: { reason: 'cis_missing' } });
  });

  it('lets the counterparty reject with a comment, then approve a replacement; both approved → cis_submitted', async () => {
    const { dealId, buyerCis, sellerCis } = await dealWithBothSheets();
    const blank = await call('POST', `/deals/${dealId}/cis/reject`, seller.token, {
      cis_id: buyerCis,
      comment: '   ',
    });
    expect(blank.statusCode).toBe(400);
    const rejected = await call('POST', `/deals/${dealId}/cis/reject`, seller.token, {
      cis_id: buyerCis,
      comment: 'Jurisdiction is missing the canton',
    });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().buyer).toMatchObject({
      status: 'rejected',
      review_comment: 'Jurisdiction is missing the canton',
    });
    expect(rejected.json().buyer.reviewed_at).toEqual(expect.any(String));
    const again = await call('POST', `/deals/${dealId}/cis/reject`, seller.token, {
      cis_id: buyerCis,
      comment: 'Still no',
    });
    expect(again.statusCode).toBe(409);

    const replacement = await uploadSheet(buyer, 'Bruno Buyer, Zug');
    const reattached = await call('POST', `/deals/${dealId}/cis`, buyer.token, { cis_id: replacement });
    expect(reattached.json().buyer).toMatchObject({
      cis: { id: replacement },
      status: 'pending',
      review_comment: null,
    });
    expect(replacement).not.toBe(buyerCis);

    const sellerApproves = await call('POST', `/deals/${dealId}/cis/approve`, seller.token, {
      cis_id: replacement,
    });
    expect(sellerApproves.statusCode).toBe(200);
    expect(sellerApproves.json().buyer.status).toBe('approved');
    expect((await call('GET', `/deals/${dealId}`, buyer.token)).json().status).toBe('draft');
    const twice = await call('POST', `/deals/${dealId}/cis/approve`, seller.token, { cis_id: replacement });
    expect(twice.statusCode).toBe(409);
    const swap = await call('POST', `/deals/${dealId}/cis`, buyer.token, { cis_id: buyerCis });
    expect(swap.statusCode).toBe(409);
    expect(swap.json().error.details).toMatchObject({ reason: 'cis_approved' });

    const buyerApproves = await call('POST', `/deals/${dealId}/cis/approve`, buyer.token, {
      cis_id: sellerCis,
    });
    expect(buyerApproves.statusCode, buyerApproves.body).toBe(200);
    expect(buyerApproves.json().seller.status).toBe('approved');
    expect((await call('GET', `/deals/${dealId}`, seller.token)).json().status).toBe('cis_submitted');

    const audit = await auditOf(dealId);
    expect(audit.verified).toBe(true);
    expect(audit.entries.map((entry) => entry.action)).toEqual([
      'created',
      'cis_attached',
      'cis_attached',
      'cis_rejected',
      'cis_attached',
      'cis_approved',
      'cis_approved',
      'cis_exchange_completed',
    ]);
    expect(audit.entries[3]).toMatchObject({
      actor_id: seller.id,
      payload: { party: 'buyer', comment: 'Jurisdiction is missing the canton' },
    });
    expect(audit.entries[7]).toMatchObject({
      actor_id: buyer.id,
      payload: { from_status: 'draft', to_status: 'cis_submitted' },
    });

    const late = await call('POST', `/deals/${dealId}/cis`, seller.token, {
      cis_id: await uploadSheet(seller),
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('INVALID_STATE_TRANSITION');
    const lateReview = await call('POST', `/deals/${dealId}/cis/reject`, seller.token, {
      cis_id: replacement,
      comment: 'Changed my mind',
    });
    expect(lateReview.json().error.code).toBe('INVALID_STATE_TRANSITION');
  });

  it('approves or rejects only the sheet the reviewer read, never one swapped in since', async () => {
    const { dealId, sellerCis } = await dealWithBothSheets();
    // The buyer reads sheet A; the seller swaps in B before the buyer's verdict arrives.
    const read = (await call('GET', `/deals/${dealId}/cis`, buyer.token)).json();
    expect(read.seller.cis.id).toBe(sellerCis);
    const swapped = await uploadSheet(seller, 'Selma Seller, another entity');
    const swap = await call('POST', `/deals/${dealId}/cis`, seller.token, { cis_id: swapped });
    expect(swap.statusCode, swap.body).toBe(200);

    for (const [verdict, body] of [
      ['approve', { cis_id: sellerCis }],
      ['reject', { cis_id: sellerCis, comment: 'Wrong canton' }],
    ] as const) {
      const stale = await call('POST', `/deals/${dealId}/cis/${verdict}`, buyer.token, body);
      expect(stale.statusCode, stale.body).toBe(409);
      expect(stale.json().error).toMatchObject({
        code: 'CONFLICT',
        message:
          'The other party has attached another CIS since you opened it: review the sheet attached now',
        details: { reason: 'cis_changed' },
      });
    }
    const [link] = await database.db
      .select()
      .from(schema.dealCis)
      .where(and(eq(schema.dealCis.dealId, dealId), eq(schema.dealCis.party, 'seller')));
    expect(link).toMatchObject({ cisId: swapped, status: 'pending', reviewedAt: null });

    // Without naming a sheet nothing is reviewed at all.
    for (const verdict of ['approve', 'reject'] as const) {
      const unnamed = await call('POST', `/deals/${dealId}/cis/${verdict}`, buyer.token, {
        ...(verdict === 'reject' ? { comment: 'Wrong canton' } : {}),
      });
      expect(unnamed.statusCode, unnamed.body).toBe(400);
      expect(unnamed.json().error.code).toBe('VALIDATION_FAILED');
    }

    const approved = await call('POST', `/deals/${dealId}/cis/approve`, buyer.token, { cis_id: swapped });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().seller).toMatchObject({ cis: { id: swapped }, status: 'approved' });
    const audit = await auditOf(dealId);
    expect(audit.entries.at(-1)).toMatchObject({
      action: 'cis_approved',
      actor_id: buyer.id,
      payload: { party: 'seller', cis_id: swapped },
    });
  });

  it('gives either party the attached PDFs, and a stranger 404 on every deal route', async () => {
    const { dealId, buyerCis, sellerCis } = await dealWithBothSheets();
    const download = await call('GET', `/deals/${dealId}/cis/buyer/pdf`, seller.token);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdf)).toBe(true);
    expect((await call('GET', `/deals/${dealId}/cis/buyer/pdf`, buyer.token)).statusCode).toBe(200);
    expect((await call('GET', `/deals/${dealId}/cis/seller/pdf`, buyer.token)).statusCode).toBe(404);

    const ownSheet = await uploadSheet(outsider);
    const strangerCalls = [
      call('GET', `/deals/${dealId}/cis`, outsider.token),
      call('GET', `/deals/${dealId}/cis/buyer/pdf`, outsider.token),
      call('POST', `/deals/${dealId}/cis`, outsider.token, { cis_id: ownSheet }),
      call('POST', `/deals/${dealId}/cis/approve`, outsider.token, { cis_id: buyerCis }),
      call('POST', `/deals/${dealId}/cis/reject`, outsider.token, { cis_id: buyerCis, comment: 'Not mine' }),
      call('GET', `/cis/${sellerCis}/pdf`, outsider.token),
    ];
    for (const response of await Promise.all(strangerCalls)) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    }
    const exchange = (await call('GET', `/deals/${dealId}/cis`, buyer.token)).json();
    expect(exchange.buyer.status).toBe('pending');
    expect(exchange.seller.status).toBe('pending');
  });

  it('completes the exchange exactly once when both parties approve at the same time', async () => {
    const { dealId, buyerCis, sellerCis } = await dealWithBothSheets();
    const responses = await Promise.all([
      call('POST', `/deals/${dealId}/cis/approve`, buyer.token, { cis_id: sellerCis }),
      call('POST', `/deals/${dealId}/cis/approve`, seller.token, { cis_id: buyerCis }),
    ]);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200]);
    expect((await call('GET', `/deals/${dealId}`, buyer.token)).json().status).toBe('cis_submitted');
    const audit = await auditOf(dealId);
    expect(audit.verified).toBe(true);
    expect(audit.entries.filter((entry) => entry.action === 'cis_exchange_completed')).toHaveLength(1);
    expect(audit.entries.filter((entry) => entry.action === 'cis_approved')).toHaveLength(2);
  });
});
