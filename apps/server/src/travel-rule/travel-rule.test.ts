import { schema } from '@covenant/db';
import type { TravelRuleDocument, TravelRulePreview } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader, type TestTrader } from '../testing/create-test-trader.js';
import { type EscrowDevnet, startEscrowDevnet } from '../testing/start-escrow-devnet.js';

// The Travel Rule (ADR 024) on the real escrow: a deal of $1,000 or more exchanges both parties'
// IVMS 101 originator and beneficiary as its escrow opens, and does not open while a party's records
// lack a required element. The parties' KYC records come from createTestTrader: each an individual
// named "Test Trader <username>" living at "Bahnhofstrasse 1 / 8001 Zürich" (town Zürich, CH), born
// on 1985-04-12 in Basel (CH).

let net: EscrowDevnet;
let outsider: TestTrader;
let compliance: TestTrader;
let complianceAal1: TestTrader;

beforeAll(async () => {
  net = await startEscrowDevnet();
  outsider = await createTestTrader(net.app);
  compliance = await createTestTrader(net.app, { roles: ['compliance'] });
  complianceAal1 = await createTestTrader(net.app, { roles: ['compliance'], aal: 'aal1' });
});

afterAll(async () => {
  await net?.close();
});

const openEscrow = (dealId: string) =>
  net.call('POST', '/api/v1/escrow/create', net.buyer.token, { deal_id: dealId });
const preview = async (dealId: string, token: string): Promise<TravelRulePreview> => {
  const response = await net.call('GET', `/api/v1/deals/${dealId}/travel-rule/preview`, token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const auditActions = async (dealId: string) =>
  (
    await net.database.db
      .select()
      .from(schema.dealAuditEntries)
      .where(eq(schema.dealAuditEntries.dealId, dealId))
      .orderBy(schema.dealAuditEntries.seq)
  ).map((entry) => ({ action: entry.action, actorId: entry.actorId, payload: entry.payload }));

describe('a deal of $1,000 or more', () => {
  let dealId: string;

  beforeAll(async () => {
    // $1,000 exactly: 1000 × 10^6 USDC base units.
    dealId = await net.agreedDeal({
      assetSymbol: 'WETH',
      assetAmount: 300_000_000_000_000_000n,
      stableSymbol: 'USDC',
      stableAmount: 1_000_000_000n,
    });
  });

  it('shows each party, before the escrow opens, its own IVMS 101 person and that nothing is missing', async () => {
    const seen = await preview(dealId, net.seller.token);
    expect(seen).toEqual({
      applies: true,
      threshold_usd: '1000',
      value_usd: '1000',
      exchanged: false,
      party: 'seller',
      person: {
        naturalPerson: {
          name: {
            nameIdentifier: [
              { primaryIdentifier: `Test Trader ${net.seller.username}`, nameIdentifierType: 'LEGL' },
            ],
          },
          geographicAddress: [
            {
              addressType: 'GEOG',
              townName: 'Zürich',
              addressLine: ['Bahnhofstrasse 1', '8001 Zürich'],
              country: 'CH',
            },
          ],
          dateAndPlaceOfBirth: { dateOfBirth: '1985-04-12', placeOfBirth: 'Basel, CH' },
          countryOfResidence: 'CH',
        },
      },
      gaps: [],
      message: null,
    });
    const missing = await net.call('GET', `/api/v1/deals/${dealId}/travel-rule`, net.buyer.token);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toMatch(/below \$1,000 or its escrow is not open yet/);
    expect(
      (await net.call('GET', `/api/v1/deals/${dealId}/travel-rule/preview`, outsider.token)).statusCode,
    ).toBe(404);
  });

  it('exchanges both legs’ originator and beneficiary as the escrow opens, stored sealed', async () => {
    expect((await openEscrow(dealId)).statusCode).toBe(201);
    const [addresses, [row]] = await Promise.all([
      net.database.db.select().from(schema.dealAddresses).where(eq(schema.dealAddresses.dealId, dealId)),
      net.database.db.select().from(schema.dealTravelRule).where(eq(schema.dealTravelRule.dealId, dealId)),
    ]);
    const addressOf = (party: 'buyer' | 'seller') => addresses.find((address) => address.party === party)!;
    const response = await net.call('GET', `/api/v1/deals/${dealId}/travel-rule`, net.buyer.token);
    expect(response.statusCode, response.body).toBe(200);
    const document: TravelRuleDocument = response.json();
    const personOf = (trader: TestTrader) => ({
      naturalPerson: {
        name: {
          nameIdentifier: [
            { primaryIdentifier: `Test Trader ${trader.username}`, nameIdentifierType: 'LEGL' },
          ],
        },
        geographicAddress: [
          {
            addressType: 'GEOG',
            townName: 'Zürich',
            addressLine: ['Bahnhofstrasse 1', '8001 Zürich'],
            country: 'CH',
          },
        ],
        dateAndPlaceOfBirth: { dateOfBirth: '1985-04-12', placeOfBirth: 'Basel, CH' },
        countryOfResidence: 'CH',
      },
    });
    expect(document).toEqual({
      deal_id: dealId,
      standard: 'IVMS 101',
      threshold_usd: '1000',
      value_usd: '1000',
      exchanged_at: row!.exchangedAt.toISOString(),
      transfers: [
        {
          leg: 'asset',
          chain: 'ETH',
          symbol: 'WETH',
          amount: '300000000000000000',
          originator: 'seller',
          beneficiary: 'buyer',
          ivms101: {
            originator: {
              originatorPersons: [personOf(net.seller)],
              accountNumber: [addressOf('seller').refundAddress],
            },
            beneficiary: {
              beneficiaryPersons: [personOf(net.buyer)],
              accountNumber: [addressOf('buyer').payoutAddress],
            },
          },
        },
        {
          leg: 'stable',
          chain: 'ETH',
          symbol: 'USDC',
          amount: '1000000000',
          originator: 'buyer',
          beneficiary: 'seller',
          ivms101: {
            originator: {
              originatorPersons: [personOf(net.buyer)],
              accountNumber: [addressOf('buyer').refundAddress],
            },
            beneficiary: {
              beneficiaryPersons: [personOf(net.seller)],
              accountNumber: [addressOf('seller').payoutAddress],
            },
          },
        },
      ],
    });
    // The seller reads the same document; the database holds it only sealed.
    const sellers = await net.call('GET', `/api/v1/deals/${dealId}/travel-rule`, net.seller.token);
    expect(sellers.json()).toEqual(document);
    expect(row!.documentSealed).toMatch(/^sealed:v1:/);
    expect(row!.documentSealed).not.toContain('Test Trader');
    expect(row!.documentSealed).not.toContain('Basel');
    expect((await preview(dealId, net.buyer.token)).exchanged).toBe(true);
  });

  it('records the exchange in the audit trail without any personal data', async () => {
    const entries = await auditActions(dealId);
    const exchange = entries.find((entry) => entry.action === 'travel_rule_exchanged');
    expect(exchange).toEqual({
      action: 'travel_rule_exchanged',
      actorId: net.buyer.id,
      payload: {
        standard: 'IVMS 101',
        value_usd: '1000',
        legs: [
          { leg: 'asset', originator: 'seller', beneficiary: 'buyer' },
          { leg: 'stable', originator: 'buyer', beneficiary: 'seller' },
        ],
      },
    });
    const trail = JSON.stringify(entries);
    expect(trail).not.toContain('Test Trader');
    expect(trail).not.toContain('Bahnhofstrasse');
    expect(trail).not.toContain('Basel');
    // The counterparty is told.
    const notices = await net.database.db
      .select()
      .from(schema.notifications)
      .where(eq(schema.notifications.dealId, dealId));
    expect(
      notices.filter((notice) => notice.kind === 'travel_rule_exchanged').map((notice) => notice.userId),
    ).toEqual([net.seller.id]);
  });

  it('is open to compliance staff with a second factor, each read audited, and to nobody else', async () => {
    const before = (await auditActions(dealId)).length;
    const read = await net.call('GET', `/api/v1/deals/${dealId}/travel-rule`, compliance.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().deal_id).toBe(dealId);
    await net.call('GET', `/api/v1/deals/${dealId}/travel-rule`, compliance.token);
    const entries = await auditActions(dealId);
    expect(entries.slice(before)).toEqual([
      { action: 'travel_rule_read_by_staff', actorId: compliance.id, payload: { role: 'compliance' } },
      { action: 'travel_rule_read_by_staff', actorId: compliance.id, payload: { role: 'compliance' } },
    ]);
    // Parties' reads are not staff reads.
    await net.call('GET', `/api/v1/deals/${dealId}/travel-rule`, net.seller.token);
    expect(await auditActions(dealId)).toHaveLength(before + 2);

    const aal1 = await net.call('GET', `/api/v1/deals/${dealId}/travel-rule`, complianceAal1.token);
    expect(aal1.statusCode).toBe(403);
    expect(aal1.json().error.details).toEqual({ required_aal: 'aal2' });
    const stranger = await net.call('GET', `/api/v1/deals/${dealId}/travel-rule`, outsider.token);
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().error.code).toBe('FORBIDDEN');
    expect(stranger.body).not.toContain('Test Trader');
    expect(await auditActions(dealId)).toHaveLength(before + 2);
  });
});

describe('a deal below $1,000', () => {
  it('opens its escrow without exchanging anything', async () => {
    // $999.999999: one micro-dollar below the threshold.
    const dealId = await net.agreedDeal({
      assetSymbol: 'WETH',
      assetAmount: 300_000_000_000_000_000n,
      stableSymbol: 'USDT',
      stableAmount: 999_999_999n,
    });
    expect(await preview(dealId, net.buyer.token)).toEqual({
      applies: false,
      threshold_usd: '1000',
      value_usd: '999.999999',
      exchanged: false,
      party: 'buyer',
      person: null,
      gaps: [],
      message: null,
    });
    expect((await openEscrow(dealId)).statusCode).toBe(201);
    expect((await net.call('GET', `/api/v1/deals/${dealId}/travel-rule`, net.buyer.token)).statusCode).toBe(
      404,
    );
    expect((await auditActions(dealId)).map((entry) => entry.action)).not.toContain('travel_rule_exchanged');
  });
});

describe('a party whose records lack a required element', () => {
  it('stops the escrow with a clear 422 naming what is missing and whose, until it is completed', async () => {
    const dealId = await net.agreedDeal({
      assetSymbol: 'WETH',
      assetAmount: 300_000_000_000_000_000n,
      stableSymbol: 'USDC',
      stableAmount: 25_000_000_000n,
    });
    // The seller's approved KYC record is gone (say, a profile verified before KYC records were kept):
    // no CIS is attached here either, so nothing names or identifies the seller.
    const kept = await net.database.db
      .delete(schema.kycSubmissions)
      .where(eq(schema.kycSubmissions.userId, net.seller.id))
      .returning();
    try {
      const refused = await openEscrow(dealId);
      expect(refused.statusCode).toBe(422);
      const message =
        'Travel Rule information is missing for this deal of $1,000 or more: the seller’s legal name; ' +
        'geographic address, national identifier, or date and place of birth. Complete the KYC record ' +
        '(Verification page) before the escrow opens.';
      expect(refused.json().error).toMatchObject({
        code: 'TRAVEL_RULE_INCOMPLETE',
        message,
        details: { missing: [{ party: 'seller', elements: ['name', 'identification'] }] },
      });
      const [escrow] = await net.database.db
        .select()
        .from(schema.escrows)
        .where(eq(schema.escrows.dealId, dealId));
      expect(escrow).toBeUndefined();
      // Both parties see the same refusal before trying; the buyer's own record is complete.
      const buyers = await preview(dealId, net.buyer.token);
      expect(buyers).toMatchObject({ applies: true, message, gaps: [{ party: 'seller' }] });
      expect(buyers.person).toHaveProperty('naturalPerson');
      expect(await preview(dealId, net.seller.token)).toMatchObject({ person: null, message });
    } finally {
      await net.database.db.insert(schema.kycSubmissions).values(kept);
    }
    expect((await openEscrow(dealId)).statusCode).toBe(201);
    expect((await net.call('GET', `/api/v1/deals/${dealId}/travel-rule`, net.seller.token)).statusCode).toBe(
      200,
    );
  });
});

describe('what the parties’ KYC records hold', () => {
  let dealId: string;
  beforeAll(async () => {
    dealId = await net.agreedDeal({
      assetSymbol: 'WETH',
      assetAmount: 300_000_000_000_000_000n,
      stableSymbol: 'USDC',
      stableAmount: 5_000_000_000n,
    });
  });

  /** Runs `check` with the seller's approved KYC record changed, then puts it back. */
  async function withSellerRecord(
    changes: Partial<typeof schema.kycSubmissions.$inferInsert>,
    check: () => Promise<void>,
  ) {
    const [kept] = await net.database.db
      .select()
      .from(schema.kycSubmissions)
      .where(eq(schema.kycSubmissions.userId, net.seller.id));
    await net.database.db
      .update(schema.kycSubmissions)
      .set(changes)
      .where(eq(schema.kycSubmissions.id, kept!.id));
    try {
      await check();
    } finally {
      await net.database.db
        .update(schema.kycSubmissions)
        .set(kept!)
        .where(eq(schema.kycSubmissions.id, kept!.id));
    }
  }

  it('sends a company’s registration number with its registration authority (RAID)', async () => {
    await withSellerRecord(
      {
        subjectType: 'company',
        legalName: 'Seller Holdings Ltd',
        country: 'GB',
        address: '1 Example Street\nLondon EC1A 1AA',
        townName: 'London',
        dateOfBirth: null,
        placeOfBirthCity: null,
        placeOfBirthCountry: null,
        registrationNumber: '00048839',
        registrationAuthority: 'RA000585',
      },
      async () => {
        expect((await preview(dealId, net.seller.token)).person).toEqual({
          legalPerson: {
            name: {
              nameIdentifier: [
                { legalPersonName: 'Seller Holdings Ltd', legalPersonNameIdentifierType: 'LEGL' },
              ],
            },
            geographicAddress: [
              {
                addressType: 'GEOG',
                townName: 'London',
                addressLine: ['1 Example Street', 'London EC1A 1AA'],
                country: 'GB',
              },
            ],
            nationalIdentification: {
              nationalIdentifier: '00048839',
              nationalIdentifierType: 'RAID',
              registrationAuthority: 'RA000585',
            },
            countryOfRegistration: 'GB',
          },
        });
      },
    );
  });

  it('sends what a record approved before the town and place of birth were asked holds', async () => {
    await withSellerRecord(
      { townName: null, placeOfBirthCity: null, placeOfBirthCountry: null },
      async () => {
        const seen = await preview(dealId, net.seller.token);
        expect(seen.gaps).toEqual([]);
        expect(seen.person).toEqual({
          naturalPerson: {
            name: {
              nameIdentifier: [
                { primaryIdentifier: `Test Trader ${net.seller.username}`, nameIdentifierType: 'LEGL' },
              ],
            },
            geographicAddress: [
              { addressType: 'GEOG', addressLine: ['Bahnhofstrasse 1', '8001 Zürich'], country: 'CH' },
            ],
            countryOfResidence: 'CH',
          },
        });
      },
    );
    // Without an address as well, only a date of birth is left: no identification.
    await withSellerRecord({ address: '', placeOfBirthCity: null }, async () => {
      expect((await preview(dealId, net.seller.token)).gaps).toEqual([
        { party: 'seller', elements: ['identification'] },
      ]);
    });
    // With the date and place of birth, a person without an address is identified.
    await withSellerRecord({ address: '' }, async () => {
      const seen = await preview(dealId, net.seller.token);
      expect(seen.gaps).toEqual([]);
      expect(seen.person).toEqual({
        naturalPerson: {
          name: {
            nameIdentifier: [
              { primaryIdentifier: `Test Trader ${net.seller.username}`, nameIdentifierType: 'LEGL' },
            ],
          },
          dateAndPlaceOfBirth: { dateOfBirth: '1985-04-12', placeOfBirth: 'Basel, CH' },
          countryOfResidence: 'CH',
        },
      });
    });
  });
});
