import { networkInterfaces } from 'node:os';
import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';

let database: Database;
let testApp: TestApp;
let trader: TestTrader;

beforeAll(async () => {
  database = await createTestDatabase();
  // WEBHOOK_ALLOW_PRIVATE is unset: the production policy.
  testApp = await buildTestApp({ database });
  trader = await createTestTrader(testApp.app);
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

function register(url: string) {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { authorization: `Bearer ${trader.token}` },
    payload: { url, events: ['deal.created'] },
  });
}

const ownInterfaceUrls = Object.values(networkInterfaces())
  .flatMap((entries) => entries ?? [])
  .map((entry) =>
    entry.family === 'IPv6' ? `http://[${entry.address}]:3000/` : `http://${entry.address}:3000/`,
  );

describe('POST /api/v1/webhooks', () => {
  it.each([
    'http://192.0.2.2:3000/',
    'http://198.51.100.1/',
    'http://203.0.113.1/',
    'http://[2002:7f00:1::]/',
    'http://[64:ff9b::a00:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://100.64.0.1/',
    'http://localhost:3000/',
    ...ownInterfaceUrls,
  ])('refuses %s with 400 VALIDATION_FAILED saying why', async (url) => {
    const response = await register(url);
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(
        /^The webhook URL (points to .+, which is not a public internet address \(.+\)|has a host name that does not resolve to public internet addresses only)$/,
      ),
      details: { fields: { url: expect.any(String) } },
      timestamp: expect.any(String),
    });
  });

  it('registers a public target', async () => {
    const response = await register('https://93.184.216.34/hook');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ url: 'https://93.184.216.34/hook' });
  });
});
