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

function call(method: 'GET' | 'PUT' | 'POST', url: string, token: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    payload: payload as Record<string, unknown> | undefined,
    headers: { authorization: `Bearer ${token}` },
  });
}

/**
 * A deal on `chains` against 30,000 USDC on Solana. Deals on Bitcoin and Solana can no longer be
 * created (their escrow is not built), but a deal made before that rule keeps its chains and its
 * addresses are still checked per chain: the deal is created on Ethereum and its row moved there.
 */
async function newDeal(chains: { asset_chain: string; asset_symbol: string; asset_amount: string }) {
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
  const dealId = response.json().id as string;
  await database.db
    .update(schema.deals)
    .set({
      assetChain: chains.asset_chain,
      assetSymbol: chains.asset_symbol,
      assetAmount: chains.asset_amount,
      stableChain: 'SOL',
    })
    .where(eq(schema.deals.id, dealId));
  return dealId;
}

/** 0.5 BTC against 30,000 USDC on Solana. */
const btcForSolUsdc = { asset_chain: 'BTC', asset_symbol: 'BTC', asset_amount: '50000000' };
/** 10 ETH against 30,000 USDC on Solana. */
const ethForSolUsdc = { asset_chain: 'ETH', asset_symbol: 'ETH', asset_amount: '10000000000000000000' };

const regtestSegwit = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';
const tokenProgram = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const systemProgram = '11111111111111111111111111111111';
const checksummedEth = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

const put = (dealId: string, trader: TestTrader, payout: string, refund: string) =>
  call('PUT', `/api/v1/deals/${dealId}/addresses`, trader.token, {
    payout_address: payout,
    refund_address: refund,
  });

describe('PUT /api/v1/deals/:id/addresses', () => {
  it('takes the buyer’s payout on the asset chain and refund on the stable chain', async () => {
    const dealId = await newDeal(btcForSolUsdc);
    const response = await put(dealId, buyer, regtestSegwit, tokenProgram);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'draft',
      addresses: { buyer: { payout_address: regtestSegwit, refund_address: tokenProgram }, seller: null },
    });
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, seller.token)).json();
    expect(audit.entries.at(-1)).toMatchObject({
      action: 'addresses_set',
      actor_id: buyer.id,
      payload: { party: 'buyer', payout_address: regtestSegwit, refund_address: tokenProgram },
    });
  });

  it('takes the seller’s payout on the stable chain and refund on the asset chain', async () => {
    const dealId = await newDeal(btcForSolUsdc);
    const swapped = await put(dealId, seller, regtestSegwit, tokenProgram);
    expect(swapped.statusCode).toBe(400);
    expect(swapped.json().error.details.fields).toEqual({
      payout_address: 'A Solana address is base58 text (SOL)',
      refund_address: 'Not a Bitcoin regtest address (bad characters or checksum) (BTC)',
    });
    const response = await put(dealId, seller, systemProgram, regtestSegwit);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().addresses.seller).toEqual({
      payout_address: systemProgram,
      refund_address: regtestSegwit,
    });
  });

  it.each([
    [
      'a mainnet Bitcoin address on regtest',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      tokenProgram,
      'payout_address',
    ],
    [
      'a corrupted bech32 checksum',
      'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt081',
      tokenProgram,
      'payout_address',
    ],
    ['a Solana address one character short', regtestSegwit, tokenProgram.slice(0, -1), 'refund_address'],
  ])('refuses %s with the field named', async (_name, payout, refund, field) => {
    const dealId = await newDeal(btcForSolUsdc);
    const response = await put(dealId, buyer, payout, refund);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(response.json().error.details.fields)).toEqual([field]);
    const stored = await database.db
      .select()
      .from(schema.dealAddresses)
      .where(eq(schema.dealAddresses.dealId, dealId));
    expect(stored).toEqual([]);
  });

  it('checks EIP-55 on an Ethereum payout and refuses the zero address', async () => {
    const dealId = await newDeal(ethForSolUsdc);
    const badCase = await put(dealId, buyer, '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', tokenProgram);
    expect(badCase.statusCode).toBe(400);
    expect(badCase.json().error.details.fields).toEqual({
      payout_address: 'The address fails its EIP-55 checksum (mixed case) (ETH)',
    });
    const zero = await put(dealId, buyer, `0x${'0'.repeat(40)}`, tokenProgram);
    expect(zero.statusCode).toBe(400);
    const ok = await put(dealId, buyer, checksummedEth, tokenProgram);
    expect(ok.statusCode, ok.body).toBe(200);
    const lower = await put(dealId, buyer, checksummedEth.toLowerCase(), tokenProgram);
    expect(lower.statusCode).toBe(200);
  });

  it('records nothing when the same addresses are set again', async () => {
    const dealId = await newDeal(btcForSolUsdc);
    expect((await put(dealId, buyer, regtestSegwit, tokenProgram)).statusCode).toBe(200);
    expect((await put(dealId, buyer, regtestSegwit, tokenProgram)).statusCode).toBe(200);
    const audit = (await call('GET', `/api/v1/deals/${dealId}/audit`, buyer.token)).json();
    expect(audit.entries.map((entry: { action: string }) => entry.action)).toEqual([
      'created',
      'addresses_set',
    ]);
  });

  it('refuses a malformed body and hides the deal from strangers', async () => {
    const dealId = await newDeal(btcForSolUsdc);
    const empty = await call('PUT', `/api/v1/deals/${dealId}/addresses`, buyer.token, { payout_address: '' });
    expect(empty.statusCode).toBe(400);
    const stranger = await put(dealId, outsider, systemProgram, regtestSegwit);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error.code).toBe('NOT_FOUND');
  });
});
