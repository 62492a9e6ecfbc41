import { randomUUID } from 'node:crypto';
import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';

// Every /api/v1/staff operation of the OpenAPI document, read from the document so a staff route
// added later is covered without touching this file: traders, API keys and staff whose session has
// not passed a second factor are all refused with 403, before any input is looked at.
let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
let operations: Array<{ method: string; path: string }> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database });
  app = testApp.app;
  const document = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  operations = Object.entries(document.paths as Record<string, Record<string, unknown>>)
    .filter(([path]) => path.startsWith('/staff/'))
    .flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
    );
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** Calls every staff operation (with a random id in each path parameter) and collects the answers. */
async function callEveryStaffRoute(authorization: string) {
  const answers: Array<{ label: string; status: number; code: string | undefined; details: unknown }> = [];
  for (const { method, path } of operations) {
    const url = `/api/v1${path.replace(/\{[a-z_]+\}/g, () => randomUUID())}`;
    const response = await app.inject({
      method: method as Method,
      url,
      headers: { authorization },
      payload: method === 'GET' || method === 'DELETE' ? undefined : {},
    });
    const body = String(response.headers['content-type']).includes('json') ? response.json() : {};
    answers.push({
      label: `${method} ${path}`,
      status: response.statusCode,
      code: body.error?.code,
      details: body.error?.details,
    });
  }
  return answers;
}

describe('authorization of every /api/v1/staff operation', () => {
  it('finds the staff operations of every area', () => {
    const paths = operations.map((operation) => operation.path);
    expect(paths.some((path) => path.startsWith('/staff/support'))).toBe(true);
    expect(paths.some((path) => path.startsWith('/staff/kyc'))).toBe(true);
    expect(paths.some((path) => path.startsWith('/staff/disputes'))).toBe(true);
    expect(paths.some((path) => path.startsWith('/staff/users'))).toBe(true);
    expect(paths.some((path) => path.startsWith('/staff/deals'))).toBe(true);
    expect(paths.some((path) => path.startsWith('/staff/travel'))).toBe(true);
  });

  it('answers 403 to a trader on every staff route', async () => {
    const trader = await createTestTrader(app);
    for (const answer of await callEveryStaffRoute(`Bearer ${trader.token}`)) {
      expect([answer.label, answer.status, answer.code]).toEqual([answer.label, 403, 'FORBIDDEN']);
    }
  });

  it('answers 403 to an API key of a user who holds every staff role', async () => {
    const staff: TestTrader = await createTestTrader(app, {
      roles: ['admin', 'compliance', 'mediator', 'concierge'],
    });
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: { authorization: `Bearer ${staff.token}` },
      payload: { name: 'staff key' },
    });
    expect(created.statusCode).toBe(201);
    for (const answer of await callEveryStaffRoute(`Bearer ${created.json().key}`)) {
      expect([answer.label, answer.status, answer.code]).toEqual([answer.label, 403, 'FORBIDDEN']);
    }
  });

  it('asks staff without a second factor (aal1) for one on every staff route', async () => {
    const staff = await createTestTrader(app, {
      roles: ['admin', 'compliance', 'mediator', 'concierge'],
      aal: 'aal1',
    });
    for (const answer of await callEveryStaffRoute(`Bearer ${staff.token}`)) {
      expect([answer.label, answer.status, answer.details]).toEqual([
        answer.label,
        403,
        { required_aal: 'aal2' },
      ]);
    }
  });
});
