import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Database, schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
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

// A 1×1 PNG; the marker after its end makes the plaintext easy to look for on disk.
const marker = 'WIRE-RECEIPT-7731-CONFIDENTIAL';
const png = Buffer.concat([
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  Buffer.from(marker),
]);
const pdf = Buffer.from(`%PDF-1.4\n% ${marker}\n%%EOF\n`);
const reason = 'The seller stopped answering after the terms were agreed.';

function call(
  method: 'GET' | 'POST',
  url: string,
  token: string,
  payload?: Record<string, unknown> | FormData,
) {
  return app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
}

function form(fields: Record<string, string>, files: { name: string; content: Buffer; type?: string }[]) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const file of files) {
    body.append('evidence', new Blob([file.content], { type: file.type ?? 'image/png' }), file.name);
  }
  return body;
}

async function newDeal(status: schema.DealStatus): Promise<string> {
  const response = await call('POST', '/api/v1/deals', buyer.token, {
    asset_chain: 'ETH',
    asset_symbol: 'WBTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    counterparty_id: seller.id,
  });
  expect(response.statusCode, response.body).toBe(201);
  const dealId: string = response.json().id;
  // The earlier steps have their own tests; a dispute only cares about where the deal stands.
  await database.db.update(schema.deals).set({ status }).where(eq(schema.deals.id, dealId));
  return dealId;
}

const statusOf = async (dealId: string) =>
  (await database.db.select().from(schema.deals).where(eq(schema.deals.id, dealId)))[0]!.status;

describe('POST /api/v1/deals/:id/disputes', () => {
  it('opens a dispute from terms_agreed with evidence, encrypted on disk, and records it in the audit trail', async () => {
    const dealId = await newDeal('terms_agreed');
    const response = await call(
      'POST',
      `/api/v1/deals/${dealId}/disputes`,
      buyer.token,
      form({ reason }, [
        { name: 'receipt.pdf', content: pdf, type: 'application/pdf' },
        { name: 'C:\\shots\\chat.png', content: png },
      ]),
    );
    expect(response.statusCode, response.body).toBe(201);
    const dispute = response.json();
    expect(dispute).toMatchObject({
      deal_id: dealId,
      status: 'open',
      reason,
      opened_by: buyer.id,
      status_before: 'terms_agreed',
      mediator_id: null,
      decision: null,
      amounts: null,
      rationale: null,
      decided_at: null,
    });
    expect(dispute.evidence.map((file: { filename: string }) => file.filename).sort()).toEqual([
      'chat.png',
      'receipt.pdf',
    ]);
    expect(await statusOf(dealId)).toBe('disputed');

    // On disk only ciphertext: neither the marker nor the PDF header appears in any stored file.
    const directory = join(app.config.dataDir, 'files');
    const stored = await database.db
      .select()
      .from(schema.storedFiles)
      .where(eq(schema.storedFiles.purpose, 'dispute_evidence'));
    expect(stored).toHaveLength(2);
    const names = await readdir(directory);
    for (const file of stored) {
      expect(names).toContain(file.id);
      const bytes = await readFile(join(directory, file.id));
      expect(bytes.includes(marker)).toBe(false);
      expect(bytes.includes('%PDF')).toBe(false);
    }

    // Both parties download the plaintext back; the audit entry names each file with its SHA-256.
    const pdfEvidence = dispute.evidence.find(
      (file: { filename: string }) => file.filename === 'receipt.pdf',
    );
    const download = await call(
      'GET',
      `/api/v1/deals/${dealId}/disputes/${dispute.id}/evidence/${pdfEvidence.id}`,
      seller.token,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.equals(pdf)).toBe(true);
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, seller.token)).json();
    expect(audit.verified).toBe(true);
    const opened = audit.entries.at(-1);
    expect(opened).toMatchObject({
      action: 'dispute_opened',
      actor_id: buyer.id,
      payload: { dispute_id: dispute.id, reason, from_status: 'terms_agreed', to_status: 'disputed' },
    });
    expect(opened.payload.evidence).toContainEqual({
      id: pdfEvidence.id,
      filename: 'receipt.pdf',
      sha256: createHash('sha256').update(pdf).digest('hex'),
    });
  });

  it('opens a dispute from escrow_funded as JSON, by the seller', async () => {
    const dealId = await newDeal('escrow_funded');
    const response = await call('POST', `/api/v1/deals/${dealId}/disputes`, seller.token, { reason });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      status_before: 'escrow_funded',
      opened_by: seller.id,
      evidence: [],
    });
    expect(await statusOf(dealId)).toBe('disputed');
    const listed = await call('GET', `/api/v1/deals/${dealId}/disputes`, buyer.token);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toHaveLength(1);
  });

  it.each(['draft', 'cis_submitted', 'cancelled', 'completed'] as const)(
    'refuses a dispute on a %s deal (409 INVALID_STATE_TRANSITION) and stores no evidence',
    async (status) => {
      const dealId = await newDeal(status);
      const before = await database.db.select().from(schema.storedFiles);
      const response = await call(
        'POST',
        `/api/v1/deals/${dealId}/disputes`,
        buyer.token,
        form({ reason }, [{ name: 'chat.png', content: png }]),
      );
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toMatchObject({
        code: 'INVALID_STATE_TRANSITION',
        details: { status, action: 'open_dispute', actor: 'buyer' },
      });
      expect(await statusOf(dealId)).toBe(status);
      expect(await database.db.select().from(schema.storedFiles)).toHaveLength(before.length);
    },
  );

  it('refuses a second dispute while one is open, also when both arrive at once', async () => {
    const dealId = await newDeal('escrow_funded');
    const [first, second] = await Promise.all([
      call('POST', `/api/v1/deals/${dealId}/disputes`, buyer.token, { reason }),
      call('POST', `/api/v1/deals/${dealId}/disputes`, seller.token, { reason }),
    ]);
    expect([first!.statusCode, second!.statusCode].sort()).toEqual([201, 409]);
    const again = await call('POST', `/api/v1/deals/${dealId}/disputes`, buyer.token, { reason });
    expect(again.statusCode).toBe(409);
    const rows = await database.db
      .select()
      .from(schema.dealDisputes)
      .where(eq(schema.dealDisputes.dealId, dealId));
    expect(rows).toHaveLength(1);
  });

  it('hides the deal from a stranger (404) on every dispute route', async () => {
    const dealId = await newDeal('terms_agreed');
    const opened = await call('POST', `/api/v1/deals/${dealId}/disputes`, outsider.token, { reason });
    expect(opened.statusCode).toBe(404);
    expect(opened.json().error.code).toBe('NOT_FOUND');
    expect(await statusOf(dealId)).toBe('terms_agreed');

    const dispute = (
      await call(
        'POST',
        `/api/v1/deals/${dealId}/disputes`,
        buyer.token,
        form({ reason }, [{ name: 'chat.png', content: png }]),
      )
    ).json();
    const base = `/api/v1/deals/${dealId}/disputes`;
    expect((await call('GET', base, outsider.token)).statusCode).toBe(404);
    const added = await call(
      'POST',
      `${base}/${dispute.id}/evidence`,
      outsider.token,
      form({}, [{ name: 'mine.png', content: png }]),
    );
    expect(added.statusCode).toBe(404);
    const download = await call(
      'GET',
      `${base}/${dispute.id}/evidence/${dispute.evidence[0].id}`,
      outsider.token,
    );
    expect(download.statusCode).toBe(404);
  });

  it('checks the reason and the files by their content', async () => {
    const dealId = await newDeal('terms_agreed');
    const short = await call('POST', `/api/v1/deals/${dealId}/disputes`, buyer.token, {
      reason: 'Too short',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: [{ path: '/reason' }] },
    });
    const fake = await call(
      'POST',
      `/api/v1/deals/${dealId}/disputes`,
      buyer.token,
      form({ reason }, [
        { name: 'invoice.pdf', content: Buffer.from('MZ not a pdf'), type: 'application/pdf' },
      ]),
    );
    expect(fake.statusCode).toBe(400);
    expect(fake.json().error.details.issues[0]).toMatchObject({ path: '/evidence/0' });
    const six = await call(
      'POST',
      `/api/v1/deals/${dealId}/disputes`,
      buyer.token,
      form(
        { reason },
        Array.from({ length: 6 }, (_, index) => ({ name: `shot-${index}.png`, content: png })),
      ),
    );
    expect(six.statusCode).toBe(400);
    expect(await statusOf(dealId)).toBe('terms_agreed');
  });

  it('replays a multipart request with the same Idempotency-Key and refuses other files under it', async () => {
    const dealId = await newDeal('terms_agreed');
    const send = (content: Buffer) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/deals/${dealId}/disputes`,
        headers: { authorization: `Bearer ${buyer.token}`, 'idempotency-key': `dispute-${dealId}` },
        payload: form({ reason }, [{ name: 'chat.png', content }]),
      });
    const first = await send(png);
    expect(first.statusCode).toBe(201);
    const retry = await send(png);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    const other = await send(Buffer.concat([png, Buffer.from([0])]));
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('POST /api/v1/deals/:id/disputes/:dispute_id/evidence', () => {
  it('adds evidence while the dispute is open, recorded in the audit trail', async () => {
    const dealId = await newDeal('escrow_funded');
    const dispute = (await call('POST', `/api/v1/deals/${dealId}/disputes`, buyer.token, { reason })).json();
    const added = await call(
      'POST',
      `/api/v1/deals/${dealId}/disputes/${dispute.id}/evidence`,
      seller.token,
      form({}, [
        { name: 'shipment.jpg', content: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), type: 'image/jpeg' },
      ]),
    );
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().evidence).toEqual([
      expect.objectContaining({
        filename: 'shipment.jpg',
        content_type: 'image/jpeg',
        uploaded_by: seller.id,
      }),
    ]);
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json();
    expect(audit.verified).toBe(true);
    expect(audit.entries.at(-1)).toMatchObject({ action: 'dispute_evidence_added', actor_id: seller.id });

    const none = await call(
      'POST',
      `/api/v1/deals/${dealId}/disputes/${dispute.id}/evidence`,
      seller.token,
      form({}, []),
    );
    expect(none.statusCode).toBe(400);
  });

  it('refuses evidence once the dispute is decided (409)', async () => {
    const dealId = await newDeal('escrow_funded');
    const dispute = (await call('POST', `/api/v1/deals/${dealId}/disputes`, buyer.token, { reason })).json();
    await database.db
      .update(schema.dealDisputes)
      .set({ status: 'decided' })
      .where(eq(schema.dealDisputes.id, dispute.id));
    const before = await database.db.select().from(schema.storedFiles);
    const added = await call(
      'POST',
      `/api/v1/deals/${dealId}/disputes/${dispute.id}/evidence`,
      buyer.token,
      form({}, [{ name: 'late.png', content: png }]),
    );
    expect(added.statusCode).toBe(409);
    expect(await database.db.select().from(schema.storedFiles)).toHaveLength(before.length);
  });
});
