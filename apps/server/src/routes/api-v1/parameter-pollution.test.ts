import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTrader } from '../../testing/create-test-trader.js';
import { type DealParties, startDealParties } from '../../testing/start-deal-parties.js';

let parties: DealParties;
let app: FastifyInstance;
let buyer: TestTrader;

beforeAll(async () => {
  parties = await startDealParties();
  ({ app, buyer } = parties);
});
afterAll(async () => {
  await parties?.close();
});

// HTTP parameter pollution (ASVS 5.1.1): a parameter sent twice arrives as an array, which no query
// schema takes, so the server never has to guess which of the two values a client meant.
describe('a query parameter sent twice', () => {
  it('is refused with 400 VALIDATION_FAILED naming the parameter, whether text, number or choice', async () => {
    const polluted = [
      '/api/v1/partners?search=ada&search=bob',
      '/api/v1/deals?limit=5&limit=100',
      '/api/v1/deals?status=cancelled&status=settled',
    ];
    for (const url of polluted) {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${buyer.token}` },
      });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
      const { error } = response.json();
      expect(error.code, url).toBe('VALIDATION_FAILED');
      const parameter = new URL(url, 'http://x').searchParams.keys().next().value as string;
      expect(JSON.stringify(error), url).toContain(parameter);
    }
  });

  it('is taken once sent once, so the refusal above is the repetition and nothing else', async () => {
    for (const url of [
      '/api/v1/partners?search=ada',
      '/api/v1/deals?limit=5',
      '/api/v1/deals?status=cancelled',
    ]) {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${buyer.token}` },
      });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    }
  });
});
