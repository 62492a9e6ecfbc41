import { schema } from '@covenant/db';
import type { EscrowStatusView } from '@covenant/domain';
import { typedDataFromJson } from '@covenant/escrow/ethereum';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader } from '../testing/create-test-trader.js';
import {
  dealStatus,
  type EscrowDevnet,
  type EscrowParty,
  startEscrowDevnet,
} from '../testing/start-escrow-devnet.js';

// Done-when (1): two users complete a WETH-against-USDT deal through the API on the devnet, every
// balance checked to the base unit.
//
// Asset leg: 20.000000000000012345 WETH = 20_000_000_000_000_012_345 wei, deposited by the seller.
//   fee = floor(20_000_000_000_000_012_345 / 10_000) = 2_000_000_000_000_001 (the .2345 is dropped)
//   buyer receives 20_000_000_000_000_012_345 − 2_000_000_000_000_001 = 19_998_000_000_000_012_344
// Stable leg: 60,000.123457 USDT = 60_000_123_457 base units, deposited by the buyer.
//   fee = floor(60_000_123_457 / 10_000) = 6_000_012 (the .3457 is dropped)
//   seller receives 60_000_123_457 − 6_000_012 = 59_994_123_445
const assetAmount = 20_000_000_000_000_012_345n;
const assetFee = 2_000_000_000_000_001n;
const stableAmount = 60_000_123_457n;
const stableFee = 6_000_012n;

let net: EscrowDevnet;
let dealId: string;

beforeAll(async () => {
  net = await startEscrowDevnet();
  for (const party of [net.buyer, net.seller]) {
    await net.database.db.insert(schema.webhookEndpoints).values({
      userId: party.id,
      url: 'https://hooks.example.com/covenant',
      events: ['escrow.funded', 'deal.completed'],
      secret: 'whsec_test',
    });
  }
  dealId = await net.agreedDeal({ assetSymbol: 'WETH', assetAmount, stableSymbol: 'USDT', stableAmount });
});

afterAll(async () => {
  await net?.close();
});

const status = async (party: EscrowParty): Promise<EscrowStatusView> => {
  const response = await net.call('GET', `/api/v1/deals/${dealId}/escrow`, party.token);
  expect(response.statusCode).toBe(200);
  return response.json();
};
const legOf = (view: EscrowStatusView, leg: 'asset' | 'stable') => {
  const found = view.legs.find((entry) => entry.leg === leg);
  if (!found) throw new Error(`no ${leg} leg`);
  return found;
};
const signedBy = (party: EscrowParty, typedData: EscrowStatusView['legs'][number]['release_typed_data']) => {
  if (!typedData) throw new Error('nothing to sign');
  return party.escrowKey.signTypedData(typedDataFromJson(typedData));
};

describe('a WETH-against-USDT deal settled through the API', () => {
  let escrowId: string;
  let assetDeposit: string;
  let stableDeposit: string;

  it('opens the escrow once, with a deposit address per leg', async () => {
    const created = await net.call('POST', '/api/v1/escrow/create', net.buyer.token, { deal_id: dealId });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    escrowId = body.escrow_id;
    expect(
      body.legs.map((leg: { leg: string; symbol: string; amount: string }) => [
        leg.leg,
        leg.symbol,
        leg.amount,
      ]),
    ).toEqual([
      ['asset', 'WETH', assetAmount.toString()],
      ['stable', 'USDT', stableAmount.toString()],
    ]);
    assetDeposit = body.legs[0].deposit_address;
    stableDeposit = body.legs[1].deposit_address;
    const again = await net.call('POST', '/api/v1/escrow/create', net.seller.token, { deal_id: dealId });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(body);
    const outsider = await net.call(
      'GET',
      `/api/v1/escrow/${escrowId}/status`,
      (await createTestTrader(net.app)).token,
    );
    expect(outsider.statusCode).toBe(404);
  });

  it('finds both deposits, counts them once deep enough, and funds the deal', async () => {
    const assetTx = await net.pay(net.seller, 'WETH', assetDeposit, assetAmount);
    const stableTx = await net.pay(net.buyer, 'USDT', stableDeposit, stableAmount);

    // The buyer points at its deposit: verified on-chain, a wrong amount refused.
    const wrong = await net.call('POST', '/api/v1/escrow/fund', net.buyer.token, {
      deal_id: dealId,
      transaction_hash: stableTx,
      chain: 'ETH',
      amount: (stableAmount + 1n).toString(),
    });
    expect(wrong.statusCode).toBe(400);
    const reported = await net.call('POST', '/api/v1/escrow/fund', net.buyer.token, {
      deal_id: dealId,
      transaction_hash: stableTx,
      chain: 'ETH',
      amount: stableAmount.toString(),
    });
    expect(reported.statusCode, reported.body).toBe(202);
    expect(legOf(reported.json(), 'stable').pending).toBe(stableAmount.toString());

    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
    const view = await status(net.seller);
    expect(view.status).toBe('funded');
    expect(legOf(view, 'asset')).toMatchObject({
      state: 'funded',
      received: assetAmount.toString(),
      pending: '0',
    });
    expect(legOf(view, 'stable')).toMatchObject({ state: 'funded', received: stableAmount.toString() });
    expect(legOf(view, 'asset').confirmations).toBeGreaterThanOrEqual(2);

    const again = await net.call('POST', '/api/v1/escrow/fund', net.seller.token, {
      deal_id: dealId,
      transaction_hash: assetTx,
      chain: 'ETH',
      amount: assetAmount.toString(),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('ESCROW_ALREADY_FUNDED');
  });

  it('asks each giving party for its own leg only, and refuses a signature by another key', async () => {
    const sellerView = await status(net.seller);
    const buyerView = await status(net.buyer);
    expect(legOf(sellerView, 'asset').release_typed_data).not.toBeNull();
    expect(legOf(sellerView, 'asset').signer_address).toBe(net.seller.escrowKey.address);
    expect(legOf(sellerView, 'stable').release_typed_data).toBeNull();
    expect(legOf(buyerView, 'stable').release_typed_data).not.toBeNull();
    expect(legOf(buyerView, 'asset').release_typed_data).toBeNull();

    const byBuyerKey = await signedBy(net.buyer, legOf(sellerView, 'asset').release_typed_data);
    const forged = await net.call('POST', '/api/v1/escrow/release', net.seller.token, {
      deal_id: dealId,
      leg: 'asset',
      signature: byBuyerKey,
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe('INVALID_SIGNATURE');
    const notYours = await net.call('POST', '/api/v1/escrow/release', net.buyer.token, {
      deal_id: dealId,
      leg: 'asset',
      signature: byBuyerKey,
    });
    expect(notYours.statusCode).toBe(403);
    // The documented alias names the escrow and the caller's side; another side is refused alike.
    const otherSide = await net.call('POST', '/api/v1/escrow/release', net.buyer.token, {
      escrow_id: escrowId,
      side: 'seller',
      signature: byBuyerKey,
    });
    expect(otherSide.statusCode, otherSide.body).toBe(403);
    expect(otherSide.json().error.code).toBe('FORBIDDEN');
    const aliasForged = await net.call('POST', '/api/v1/escrow/release', net.seller.token, {
      escrow_id: escrowId,
      side: 'seller',
      signature: byBuyerKey,
    });
    expect(aliasForged.statusCode, aliasForged.body).toBe(400);
    expect(aliasForged.json().error.code).toBe('INVALID_SIGNATURE');
    // Someone else's escrow is not found, whichever side is named.
    const stranger = await createTestTrader(net.app);
    const strangers = await net.call('POST', '/api/v1/escrow/release', stranger.token, {
      escrow_id: escrowId,
      side: 'buyer',
      signature: byBuyerKey,
    });
    expect(strangers.statusCode, strangers.body).toBe(404);
    // One form at a time, each complete.
    for (const [body, field] of [
      [{ escrow_id: escrowId, side: 'seller', deal_id: dealId, leg: 'asset' }, '/escrow_id'],
      [{ escrow_id: escrowId }, '/side'],
      [{ deal_id: dealId }, '/leg'],
      [{ side: 'seller' }, '/escrow_id'],
      [{}, '/deal_id'],
    ] as const) {
      const refused = await net.call('POST', '/api/v1/escrow/release', net.seller.token, {
        ...body,
        signature: byBuyerKey,
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.code).toBe('VALIDATION_FAILED');
      expect(refused.json().error.details.issues.map((issue: { path: string }) => issue.path)).toContain(
        field,
      );
    }
  });

  it('shows the signing payload in its chain format with the key to sign it, and takes only the leg chain’s approval form', async () => {
    const asset = legOf(await status(net.seller), 'asset');
    expect(asset.signing_payload).toEqual({ format: 'eip712', data: asset.release_typed_data });
    expect(asset.signer).toBe(net.seller.escrowKey.address);
    expect(asset.custody).toBeNull();
    expect(asset).not.toHaveProperty('platform_key_index');
    expect(legOf(await status(net.buyer), 'asset')).toMatchObject({ signing_payload: null, signer: null });

    const psbt = await net.call('POST', '/api/v1/escrow/release', net.seller.token, {
      deal_id: dealId,
      leg: 'asset',
      psbt: 'cHNidP8BAAoCAAAAAAAAAAAAAA==',
    });
    expect(psbt.statusCode, psbt.body).toBe(422);
    expect(psbt.json().error.code).toBe('APPROVAL_FORM_MISMATCH');
    const signature = await signedBy(net.seller, asset.release_typed_data);
    const both = await net.call('POST', '/api/v1/escrow/release', net.seller.token, {
      deal_id: dealId,
      leg: 'asset',
      signature,
      psbt: 'cHNidP8BAAoCAAAAAAAAAAAAAA==',
    });
    expect(both.statusCode).toBe(400);
    const neither = await net.call('POST', '/api/v1/escrow/release', net.seller.token, {
      deal_id: dealId,
      leg: 'asset',
    });
    expect(neither.statusCode).toBe(400);
    expect(legOf(await status(net.seller), 'asset').payout).toMatchObject({ status: 'collecting' });
  });

  it('holds one approval until both legs are approved, then settles both exactly once', async () => {
    const sellerView = await status(net.seller);
    const sellerSignature = await signedBy(net.seller, legOf(sellerView, 'asset').release_typed_data);
    const approved = await net.call('POST', '/api/v1/escrow/release', net.seller.token, {
      deal_id: dealId,
      leg: 'asset',
      signature: sellerSignature,
    });
    expect(approved.statusCode, approved.body).toBe(202);
    await net.app.escrow.tick();
    const waiting = legOf(await status(net.seller), 'asset');
    expect(waiting.payout).toMatchObject({
      status: 'ready',
      approved_by: ['seller'],
      transaction_hash: null,
    });
    expect(await net.balance('WETH', net.buyer.payoutAddress)).toBe(0n);

    const buyerView = await status(net.buyer);
    const buyerSignature = await signedBy(net.buyer, legOf(buyerView, 'stable').release_typed_data);
    // The buyer names its approval the documented way: the escrow and its side (the stable leg it gives).
    const second = await net.call('POST', '/api/v1/escrow/release', net.buyer.token, {
      escrow_id: escrowId,
      side: 'buyer',
      signature: buyerSignature,
    });
    expect(second.statusCode, second.body).toBe(202);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');

    expect(await net.balance('WETH', net.buyer.payoutAddress)).toBe(assetAmount - assetFee);
    expect(await net.balance('USDT', net.seller.payoutAddress)).toBe(stableAmount - stableFee);
    expect(await net.balance('WETH', net.chain.feeAddress)).toBe(assetFee);
    expect(await net.balance('USDT', net.chain.feeAddress)).toBe(stableFee);
    expect(await net.balance('WETH', assetDeposit)).toBe(0n);
    expect(await net.balance('USDT', stableDeposit)).toBe(0n);

    const view = await status(net.buyer);
    expect(view.status).toBe('settled');
    expect(legOf(view, 'asset').state).toBe('released');
    expect(legOf(view, 'stable').state).toBe('released');
    expect(view.settlement_transactions?.buyer).toMatch(/^0x[0-9a-f]{64}$/);
    expect(view.settlement_transactions?.seller).toMatch(/^0x[0-9a-f]{64}$/);

    const ledger = await net.database.db
      .select()
      .from(schema.escrowLedgerEntries)
      .where(eq(schema.escrowLedgerEntries.escrowId, escrowId));
    const sum = (leg: string, kind: string) =>
      ledger
        .filter((entry) => entry.leg === leg && entry.kind === kind)
        .reduce((total, entry) => total + BigInt(entry.amount), 0n);
    expect([sum('asset', 'deposit'), sum('asset', 'payout'), sum('asset', 'fee')]).toEqual([
      assetAmount,
      assetAmount - assetFee,
      assetFee,
    ]);
    expect([sum('stable', 'deposit'), sum('stable', 'payout'), sum('stable', 'fee')]).toEqual([
      stableAmount,
      stableAmount - stableFee,
      stableFee,
    ]);
    const alerts = await net.database.db.select().from(schema.staffAlerts);
    expect(alerts).toEqual([]);

    const deliveries = await net.database.db.select().from(schema.webhookDeliveries);
    const events = deliveries.map((delivery) => JSON.parse(delivery.body));
    const funded = events.filter((event) => event.type === 'escrow.funded').map((event) => event.data.side);
    expect(funded.sort()).toEqual(['buyer', 'buyer', 'seller', 'seller']);
    const completed = events.filter((event) => event.type === 'deal.completed');
    expect(completed).toHaveLength(2);
    expect(completed[0].data).toMatchObject({
      deal_id: dealId,
      settlement_transactions: view.settlement_transactions,
    });
  });

  it('sends a deposit that arrives after settlement back to the depositor, and the books still balance', async () => {
    const late = 5_000n;
    const before = await net.balance('WETH', net.seller.wallet);
    await net.pay(net.seller, 'WETH', assetDeposit, late);
    const swept = async () => {
      const rows = await net.database.db
        .select()
        .from(schema.escrowLedgerEntries)
        .where(eq(schema.escrowLedgerEntries.escrowId, escrowId));
      return rows.some((entry) => entry.kind === 'sweep' && entry.status === 'confirmed');
    };
    await net.settle(swept);
    // The wallet was credited `late` by the devnet mint and paid it out; the sweep brings it back.
    expect(await net.balance('WETH', net.seller.wallet)).toBe(before + late);
    expect(await net.balance('WETH', assetDeposit)).toBe(0n);
    await net.app.escrow.tick();
    expect(await net.database.db.select().from(schema.staffAlerts)).toEqual([]);
    expect(legOf(await status(net.seller), 'asset').state).toBe('released');
  });
});
