import { randomUUID } from 'node:crypto';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
let now = new Date('2030-03-01T09:00:00Z');
let admin: TestTrader;
let compliance: TestTrader;
let mediator: TestTrader;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database, clock: () => now });
  app = testApp.app;
  admin = await createTestTrader(app, { roles: ['admin'] });
  compliance = await createTestTrader(app, { roles: ['compliance'] });
  mediator = await createTestTrader(app, { roles: ['mediator'] });
});
beforeEach(async () => {
  await database.db.delete(schema.staffAlerts);
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

function call(method: 'GET' | 'POST', url: string, token: string) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(method === 'POST' ? { payload: {} } : {}),
  });
}

const escrowId = randomUUID();
const dealId = randomUUID();

/** Two alerts as the engine raises them, the reconciliation one older, straight into the table. */
async function insertAlerts() {
  const [reconciliation] = await database.db
    .insert(schema.staffAlerts)
    .values({
      kind: 'escrow_reconciliation',
      subject: `${escrowId}:stable`,
      message: "The stable leg's books do not balance: held mismatch",
      details: {
        escrow_id: escrowId,
        leg: 'stable',
        problem: 'held_mismatch',
        deposits: '30000000000',
        payouts: '29997000000',
        fees: '3000000',
        refunds: '0',
        sweeps: '0',
        expected_held: '0',
        held: '1',
      },
      createdAt: new Date('2030-03-01T08:00:00Z'),
    })
    .returning();
  const [notPayable] = await database.db
    .insert(schema.staffAlerts)
    .values({
      kind: 'instruction_not_payable',
      subject: randomUUID(),
      message: 'A mediator decision cannot be paid out: the split exceeds the deposit',
      details: { deal_id: dealId, error: 'VALIDATION_FAILED' },
      createdAt: new Date('2030-03-01T08:30:00Z'),
    })
    .returning();
  return { reconciliation: reconciliation!, notPayable: notPayable! };
}

describe('GET /api/v1/staff/alerts', () => {
  it('lists the open alerts newest first, with their details as raised, to mediators, compliance and admins', async () => {
    const { reconciliation, notPayable } = await insertAlerts();
    await database.db.insert(schema.staffAlerts).values({
      kind: 'payout_refused',
      subject: randomUUID(),
      message: 'The chain refuses a payout the parties approved',
      details: { escrow_id: escrowId, leg: 'asset' },
      createdAt: new Date('2030-03-01T08:45:00Z'),
      resolvedAt: new Date('2030-03-01T08:50:00Z'),
    });
    for (const staff of [mediator, compliance, admin]) {
      const listed = await call('GET', '/api/v1/staff/alerts', staff.token);
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json()).toEqual({
        data: [
          {
            id: notPayable.id,
            kind: 'instruction_not_payable',
            subject: notPayable.subject,
            message: 'A mediator decision cannot be paid out: the split exceeds the deposit',
            details: { deal_id: dealId, error: 'VALIDATION_FAILED' },
            created_at: '2030-03-01T08:30:00.000Z',
            resolved_at: null,
            resolved_by: null,
          },
          {
            id: reconciliation.id,
            kind: 'escrow_reconciliation',
            subject: `${escrowId}:stable`,
            message: "The stable leg's books do not balance: held mismatch",
            details: {
              escrow_id: escrowId,
              leg: 'stable',
              problem: 'held_mismatch',
              deposits: '30000000000',
              payouts: '29997000000',
              fees: '3000000',
              refunds: '0',
              sweeps: '0',
              expected_held: '0',
              held: '1',
            },
            created_at: '2030-03-01T08:00:00.000Z',
            resolved_at: null,
            resolved_by: null,
          },
        ],
      });
    }
  });

  it('answers an empty list when nothing is open', async () => {
    const listed = await call('GET', '/api/v1/staff/alerts', admin.token);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ data: [] });
  });
});

describe('POST /api/v1/staff/alerts/{id}/resolve', () => {
  it('marks an open alert resolved at the clock’s time for compliance and admins; it leaves the list', async () => {
    const { reconciliation, notPayable } = await insertAlerts();
    now = new Date('2030-03-01T09:01:00Z');
    const resolved = await call(
      'POST',
      `/api/v1/staff/alerts/${reconciliation.id}/resolve`,
      compliance.token,
    );
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({
      id: reconciliation.id,
      kind: 'escrow_reconciliation',
      resolved_at: '2030-03-01T09:01:00.000Z',
      resolved_by: compliance.email,
    });
    const [stored] = await database.db
      .select()
      .from(schema.staffAlerts)
      .where(eq(schema.staffAlerts.id, reconciliation.id));
    expect(stored!.resolvedAt).toEqual(new Date('2030-03-01T09:01:00Z'));
    expect(stored!.resolvedBy).toBe(compliance.id);
    const listed = await call('GET', '/api/v1/staff/alerts', mediator.token);
    expect(listed.json().data.map((alert: { id: string }) => alert.id)).toEqual([notPayable.id]);

    now = new Date('2030-03-01T09:02:00Z');
    const byAdmin = await call('POST', `/api/v1/staff/alerts/${notPayable.id}/resolve`, admin.token);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json()).toMatchObject({
      resolved_at: '2030-03-01T09:02:00.000Z',
      resolved_by: admin.email,
    });
    expect((await call('GET', '/api/v1/staff/alerts', admin.token)).json()).toEqual({ data: [] });
  });

  it('answers 404 for an alert already resolved (its time stays) and for an unknown one', async () => {
    const { reconciliation } = await insertAlerts();
    now = new Date('2030-03-01T09:03:00Z');
    expect(
      (await call('POST', `/api/v1/staff/alerts/${reconciliation.id}/resolve`, admin.token)).statusCode,
    ).toBe(200);
    now = new Date('2030-03-01T09:04:00Z');
    const again = await call('POST', `/api/v1/staff/alerts/${reconciliation.id}/resolve`, admin.token);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('NOT_FOUND');
    const [stored] = await database.db
      .select()
      .from(schema.staffAlerts)
      .where(eq(schema.staffAlerts.id, reconciliation.id));
    expect(stored!.resolvedAt).toEqual(new Date('2030-03-01T09:03:00Z'));

    const unknown = await call('POST', `/api/v1/staff/alerts/${randomUUID()}/resolve`, admin.token);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
  });

  it('refuses mediators with 403 and leaves the alert open', async () => {
    const { reconciliation } = await insertAlerts();
    const refused = await call('POST', `/api/v1/staff/alerts/${reconciliation.id}/resolve`, mediator.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('FORBIDDEN');
    const [stored] = await database.db
      .select()
      .from(schema.staffAlerts)
      .where(eq(schema.staffAlerts.id, reconciliation.id));
    expect(stored!.resolvedAt).toBeNull();
  });
});

describe('who may not see or resolve alerts', () => {
  it('refuses traders, API keys (even of an admin) and staff without a second factor, leaving the alert open', async () => {
    const { reconciliation } = await insertAlerts();
    const trader = await createTestTrader(app);
    const aal1Admin = await createTestTrader(app, { roles: ['admin', 'compliance'], aal: 'aal1' });
    const key = await app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { name: 'admin key' },
    });
    expect(key.statusCode, key.body).toBe(201);
    const callers = [
      { token: trader.token, details: null },
      { token: key.json().key as string, details: { reason: 'api_key_not_allowed' } },
      { token: aal1Admin.token, details: { required_aal: 'aal2' } },
    ];
    for (const { token, details } of callers) {
      for (const [method, url] of [
        ['GET', '/api/v1/staff/alerts'],
        ['POST', `/api/v1/staff/alerts/${reconciliation.id}/resolve`],
      ] as const) {
        const refused = await call(method, url, token);
        expect([url, refused.statusCode, refused.json().error.code]).toEqual([url, 403, 'FORBIDDEN']);
        expect(refused.json().error.details).toEqual(details);
      }
    }
    const [stored] = await database.db
      .select()
      .from(schema.staffAlerts)
      .where(eq(schema.staffAlerts.id, reconciliation.id));
    expect(stored!.resolvedAt).toBeNull();
  });
});
