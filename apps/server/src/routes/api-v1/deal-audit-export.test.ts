import { findBrokenAuditEntry } from '@covenant/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader } from '../../testing/create-test-trader.js';
import { type DealParties, startDealParties } from '../../testing/start-deal-parties.js';

let parties: DealParties;
let dealId: string;

beforeAll(async () => {
  parties = await startDealParties();
  const created = await call('POST', '/api/v1/deals', parties.buyer.token, {
    asset_chain: 'BTC',
    asset_symbol: 'BTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    counterparty_id: parties.seller.id,
  });
  dealId = created.json().id;
  const cancelled = await call('POST', `/api/v1/deals/${dealId}/cancel`, parties.seller.token, {
    reason: 'Changed my mind',
  });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
});
afterAll(async () => {
  await parties?.close();
});

function call(method: 'GET' | 'POST', url: string, token: string, payload?: unknown) {
  return parties.app.inject({
    method,
    url,
    payload: payload as Record<string, unknown> | undefined,
    headers: { authorization: `Bearer ${token}` },
  });
}

describe('GET /api/v1/deals/{id}/audit/export', () => {
  it('gives either party the trail as a file whose chain verifies', async () => {
    for (const party of [parties.buyer, parties.seller]) {
      const exported = await call('GET', `/api/v1/deals/${dealId}/audit/export`, party.token);
      expect(exported.statusCode, exported.body).toBe(200);
      expect(exported.headers['content-disposition']).toBe(
        `attachment; filename="deal-${dealId}-audit.json"`,
      );
      const file = exported.json();
      const trail = (await call('GET', `/api/v1/deals/${dealId}/audit`, party.token)).json();
      expect(file).toEqual({
        format: 'covenant-deal-audit/1',
        deal_id: dealId,
        exported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        entries: trail.entries,
      });
      expect(file.entries.map((entry: { action: string }) => entry.action)).toEqual(['created', 'cancelled']);
      expect(
        findBrokenAuditEntry(file.entries.map((entry: object) => ({ ...entry, deal_id: dealId }))),
      ).toBeNull();
    }
  });

  it('is 404 for anybody who is not a party, staff included, and 401 without a token', async () => {
    const staff = await createTestTrader(parties.app, { roles: ['admin', 'mediator', 'compliance'] });
    for (const token of [parties.outsider.token, staff.token]) {
      const refused = await call('GET', `/api/v1/deals/${dealId}/audit/export`, token);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().error.code).toBe('NOT_FOUND');
      expect(refused.body).not.toContain('cancelled');
    }
    expect(
      (await parties.app.inject({ method: 'GET', url: `/api/v1/deals/${dealId}/audit/export` })).statusCode,
    ).toBe(401);
  });
});
