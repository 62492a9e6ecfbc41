import { schema } from '@covenant/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';
import { type DealParties, startDealParties } from '../../testing/start-deal-parties.js';

// The staff deal view and search: what compliance and mediators read about any deal, how they find
// it, and that each read lands in the deal's audit trail.
let parties: DealParties;
let compliance: TestTrader;
let mediator: TestTrader;
let dealId: string;
let otherDealId: string;
let escrowId: string;
const depositAddress = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const fromAddress = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const depositHash = `0x${'ab'.repeat(32)}`;

beforeAll(async () => {
  parties = await startDealParties();
  compliance = await createTestTrader(parties.app, { roles: ['compliance'] });
  mediator = await createTestTrader(parties.app, { roles: ['mediator'] });
  dealId = await parties.newDeal();
  otherDealId = await parties.newDeal();
  const db = parties.database.db;
  const [escrow] = await db.insert(schema.escrows).values({ dealId }).returning();
  escrowId = escrow!.id;
  await db.insert(schema.escrowLegs).values({
    escrowId,
    leg: 'asset',
    chain: 'ETH',
    symbol: 'WBTC',
    tokenAddress: null,
    requiredAmount: '50000000',
    depositAddress,
    depositorRefundAddress: '0x1111111111111111111111111111111111111111',
    receiverPayoutAddress: '0x2222222222222222222222222222222222222222',
    buyerSigner: '0x3333333333333333333333333333333333333333',
    sellerSigner: '0x4444444444444444444444444444444444444444',
    platformSigner: '0x5555555555555555555555555555555555555555',
    requiredConfirmations: 3,
    deadline: new Date('2026-12-01T00:00:00Z'),
  });
  await db.insert(schema.escrowLedgerEntries).values({
    escrowId,
    leg: 'asset',
    chain: 'ETH',
    kind: 'deposit',
    amount: '50000000',
    txRef: depositHash,
    position: 0,
    counterpartyAddress: fromAddress,
  });
  await db.insert(schema.staffAlerts).values({
    kind: 'reconciliation_mismatch',
    subject: `${escrowId}:asset`,
    message: 'The asset leg does not reconcile',
    details: { escrow_id: escrowId, leg: 'asset' },
  });
});
afterAll(async () => {
  await parties?.close();
});

describe('GET /api/v1/staff/deals/:id', () => {
  it('shows terms, parties, escrow legs with their movements, payouts, alerts, and records the read', async () => {
    const response = await parties.call('GET', `/api/v1/staff/deals/${dealId}`, compliance.token);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.deal).toMatchObject({ id: dealId, asset_symbol: 'WBTC', asset_amount: '50000000' });
    expect(body.deal.counterparty_id).toBeUndefined();
    expect(body.parties).toEqual({
      buyer: { id: parties.buyer.id, email: parties.buyer.email, username: parties.buyer.username },
      seller: { id: parties.seller.id, email: parties.seller.email, username: parties.seller.username },
    });
    expect(body.escrow).toMatchObject({ id: escrowId, status: 'awaiting_funding' });
    expect(body.escrow.legs).toEqual([
      expect.objectContaining({
        leg: 'asset',
        deposit_address: depositAddress,
        movements: [
          expect.objectContaining({
            kind: 'deposit',
            amount: '50000000',
            transaction_hash: depositHash,
            counterparty_address: fromAddress,
          }),
        ],
      }),
    ]);
    expect(body.payouts).toEqual([]);
    expect(body.alerts).toEqual([
      expect.objectContaining({
        kind: 'reconciliation_mismatch',
        subject: `${escrowId}:asset`,
        resolved_at: null,
      }),
    ]);
    // The read itself ends the trail, which still verifies.
    expect(body.audit.verified).toBe(true);
    expect(body.audit.entries.at(-1)).toMatchObject({
      action: 'staff_viewed',
      actor_id: compliance.id,
      payload: { via: 'deal_view' },
    });
    const seenByBuyer = (
      await parties.call('GET', `/api/v1/deals/${dealId}/audit`, parties.buyer.token)
    ).json();
    expect(seenByBuyer.entries.at(-1)).toMatchObject({ action: 'staff_viewed', actor_id: compliance.id });

    const other = (await parties.call('GET', `/api/v1/staff/deals/${otherDealId}`, mediator.token)).json();
    expect(other.escrow).toBeNull();
    expect(other.alerts).toEqual([]);
  });

  it('answers 404 for no such deal and 403 to a party of the deal', async () => {
    const missing = await parties.call(
      'GET',
      '/api/v1/staff/deals/00000000-0000-4000-8000-000000000000',
      compliance.token,
    );
    expect(missing.statusCode).toBe(404);
    const trader = await parties.call('GET', `/api/v1/staff/deals/${dealId}`, parties.buyer.token);
    expect([trader.statusCode, trader.json().error.code]).toEqual([403, 'FORBIDDEN']);
  });
});

describe('GET /api/v1/staff/deals?q=', () => {
  const search = async (q: string, token = compliance.token) => {
    const response = await parties.call('GET', `/api/v1/staff/deals?q=${encodeURIComponent(q)}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Array<{ id: string; matched: string }>;
  };

  it('finds deals by deal or escrow id, by user id, e-mail address or username, and by address', async () => {
    expect(await search(dealId)).toEqual([expect.objectContaining({ id: dealId, matched: 'deal' })]);
    expect(await search(escrowId)).toEqual([expect.objectContaining({ id: dealId, matched: 'escrow' })]);
    for (const user of [parties.seller.id, parties.seller.email.toUpperCase(), parties.seller.username]) {
      const found = await search(user);
      expect(found.map((deal) => deal.id).sort()).toEqual([dealId, otherDealId].sort());
      expect(found.every((deal) => deal.matched === 'user')).toBe(true);
    }
    expect(await search(depositAddress.toLowerCase())).toEqual([
      expect.objectContaining({ id: dealId, matched: 'address' }),
    ]);
    expect(await search(fromAddress)).toEqual([expect.objectContaining({ id: dealId, matched: 'address' })]);
    expect(await search('nobody@example.com')).toEqual([]);
    // Exact matches only: a fragment lists nothing.
    expect(await search(parties.seller.username.slice(0, 6))).toEqual([]);
  });

  it('records each listed deal as a staff read, with what matched and never the search text', async () => {
    await search(parties.buyer.email, mediator.token);
    const audit = (
      await parties.call('GET', `/api/v1/deals/${otherDealId}/audit`, parties.seller.token)
    ).json();
    expect(audit.verified).toBe(true);
    expect(audit.entries.at(-1)).toMatchObject({
      action: 'staff_viewed',
      actor_id: mediator.id,
      payload: { via: 'search', matched: 'user' },
    });
    expect(JSON.stringify(audit.entries.at(-1))).not.toContain(parties.buyer.email);
  });

  it('refuses an empty search with 400 and traders with 403', async () => {
    const empty = await parties.call('GET', '/api/v1/staff/deals?q=%20', compliance.token);
    expect([empty.statusCode, empty.json().error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const trader = await parties.call('GET', `/api/v1/staff/deals?q=${dealId}`, parties.outsider.token);
    expect([trader.statusCode, trader.json().error.code]).toEqual([403, 'FORBIDDEN']);
  });
});
