import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader } from '../testing/create-test-trader.js';
import { escrowSteps } from '../testing/escrow-steps.js';
import { dealStatus, type EscrowDevnet, startEscrowDevnet } from '../testing/start-escrow-devnet.js';

let net: EscrowDevnet;

beforeAll(async () => {
  net = await startEscrowDevnet();
});

afterAll(async () => {
  await net?.close();
});

const hour = 3_600_000;

const { view, leg, approve, openedEscrow, fundedEscrow, fundLeg } = escrowSteps(() => net);

describe('Done-when (3): one side funds and the funding deadline passes', () => {
  // 1.5 WETH = 1_500_000_000_000_000_000 wei deposited by the seller; the buyer never pays its 4 500 USDC.
  const assetAmount = 1_500_000_000_000_000_000n;
  const stableAmount = 4_500_000_000n;
  const terms = {
    assetSymbol: 'WETH',
    assetAmount,
    stableSymbol: 'USDC',
    stableAmount,
    fundingDeadlineHours: 1,
  };

  /** The seller pays the asset leg in full; the buyer pays nothing. */
  const sellerFunds = (dealId: string, deposit: { asset: string }) =>
    fundLeg(dealId, 'asset', { from: net.seller, symbol: 'WETH', to: deposit.asset, amount: assetAmount });

  it('cancels the deal and refunds the deposit exactly, without anyone signing, once the settlement window has passed', async () => {
    const { dealId, deposit } = await openedEscrow(terms);
    await sellerFunds(dealId, deposit);
    expect(await net.balance('WETH', net.seller.wallet)).toBe(0n);
    expect(await dealStatus(net.database, dealId)).toBe('terms_agreed');

    await net.clock.advance(hour + 1_000);
    await net.app.escrow.tick();
    expect(await dealStatus(net.database, dealId)).toBe('cancelled');
    const cancelled = await view(net.seller, dealId);
    expect(cancelled.status).toBe('refunding');
    expect(leg(cancelled, 'asset').payout).toMatchObject({
      kind: 'refund',
      source: 'cancellation',
      status: 'collecting',
    });
    // The seller could approve the refund at once; nobody does here.
    expect(leg(cancelled, 'asset').release_typed_data).not.toBeNull();
    expect(leg(await view(net.buyer, dealId), 'asset').release_typed_data).toBeNull();

    // Before the escrow's on-chain deadline nothing moves without a second signature.
    await net.app.escrow.tick();
    expect(await net.balance('WETH', net.seller.wallet)).toBe(0n);

    // The settlement window (72 h by default) passes, on the server's clock and on the chain's
    // (the chain has not seen the first hour pass yet).
    await net.clock.advance(72 * hour);
    await net.mine(1, 73 * 3600 + 10);
    await net.settle(async () => (await view(net.seller, dealId)).status === 'refunded');
    expect(await net.balance('WETH', net.seller.wallet)).toBe(assetAmount);
    expect(await net.balance('WETH', deposit.asset)).toBe(0n);
    expect(await net.balance('WETH', net.chain.feeAddress)).toBe(0n);
    const refunded = await view(net.seller, dealId);
    expect(leg(refunded, 'asset').state).toBe('refunded');
    expect(leg(refunded, 'stable').state).toBe('awaiting_deposit');
    const audit = (await net.call('GET', `/api/v1/deals/${dealId}/audit`, net.buyer.token)).json();
    expect(audit.verified).toBe(true);
    expect(audit.entries.map((entry: { action: string }) => entry.action)).toEqual(
      expect.arrayContaining(['escrow_opened', 'funding_deadline_passed', 'escrow_refunded']),
    );
  });

  it('cancels a deal whose escrow was never opened once its funding deadline passes', async () => {
    const dealId = await net.agreedDeal({ ...terms, fundingDeadlineHours: 2 });
    // Travel waiting for a quote is cancelled with the deal.
    const [travel] = await net.database.db
      .insert(schema.travelItems)
      .values({
        dealId,
        kind: 'flight',
        traveller: 'buyer',
        details: 'LHR to ZRH',
        requestedBy: net.buyer.id,
      })
      .returning();
    await net.clock.advance(hour);
    await net.app.escrow.tick();
    expect(await dealStatus(net.database, dealId)).toBe('terms_agreed');
    await net.clock.advance(hour + 1_000);
    await net.app.escrow.tick();
    expect(await dealStatus(net.database, dealId)).toBe('cancelled');
    const [item] = await net.database.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.id, travel!.id));
    expect(item!.status).toBe('cancelled');
    const opened = await net.call('POST', '/api/v1/escrow/create', net.buyer.token, { deal_id: dealId });
    expect(opened.statusCode).toBe(409);
  });

  it('refunds at once when the depositor approves the refund', async () => {
    // The deposit is minted to the seller's wallet and paid on, so the refund adds it to what the wallet held.
    const before = await net.balance('WETH', net.seller.wallet);
    const { dealId, deposit } = await openedEscrow(terms);
    await sellerFunds(dealId, deposit);
    await net.clock.advance(hour + 1_000);
    await net.app.escrow.tick();
    await approve(net.seller, dealId, 'asset');
    await net.settle(async () => (await view(net.seller, dealId)).status === 'refunded');
    expect(await net.balance('WETH', net.seller.wallet)).toBe(before + assetAmount);
    expect(await net.balance('WETH', net.chain.feeAddress)).toBe(0n);
  });
});

describe('Done-when (4): a dispute decided as a split', () => {
  // Asset leg 2 WBTC = 200_000_000 sat (seller deposits): buyer 150_000_000, seller back 50_000_000.
  //   fee on the buyer's share only: floor(150_000_000 / 10_000) = 15_000
  //   buyer receives 150_000_000 − 15_000 = 149_985_000; seller gets 50_000_000 back whole.
  // Stable leg 130 000.000001 USDC = 130_000_000_001 (buyer deposits): seller 100_000_000_001, buyer back 30_000_000_000.
  //   fee = floor(100_000_000_001 / 10_000) = 10_000_000 (the .0001 is dropped)
  //   seller receives 100_000_000_001 − 10_000_000 = 99_990_000_001; buyer gets 30_000_000_000 back.
  const assetAmount = 200_000_000n;
  const stableAmount = 130_000_000_001n;

  it('pays each leg as the mediator decided once either party approves, to the base unit', async () => {
    const { dealId } = await fundedEscrow({
      assetSymbol: 'WBTC',
      assetAmount,
      stableSymbol: 'USDC',
      stableAmount,
    });

    const opened = await net.call('POST', `/api/v1/deals/${dealId}/disputes`, net.buyer.token, {
      reason: 'The seller asks for more than the agreed price before approving.',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const mediator = await createTestTrader(net.app, { roles: ['mediator'] });
    const disputeId = opened.json().id;
    expect(
      (await net.call('POST', `/api/v1/staff/disputes/${disputeId}/assign`, mediator.token)).statusCode,
    ).toBe(200);
    const decided = await net.call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
      decision: 'split',
      split: {
        asset: { buyer: '150000000', seller: '50000000' },
        stable: { buyer: '30000000000', seller: '100000000001' },
      },
      rationale: 'Both parties performed in part; the evidence supports three quarters of the asset.',
    });
    expect(decided.statusCode, decided.body).toBe(200);

    await net.app.escrow.tick();
    const sellerView = await view(net.seller, dealId);
    const buyerView = await view(net.buyer, dealId);
    // Either party's approval carries the decision out: each sees both legs to sign.
    for (const status of [sellerView, buyerView]) {
      expect(leg(status, 'asset').payout).toMatchObject({
        kind: 'split',
        source: 'mediator',
        status: 'collecting',
      });
      expect(leg(status, 'asset').release_typed_data).not.toBeNull();
      expect(leg(status, 'stable').release_typed_data).not.toBeNull();
    }
    // The seller approves only the asset leg, the buyer only the stable one: each still goes.
    await approve(net.seller, dealId, 'asset');
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => (await view(net.buyer, dealId)).status === 'settled');

    expect(await net.balance('WBTC', net.buyer.payoutAddress)).toBe(149_985_000n);
    expect(await net.balance('WBTC', net.seller.wallet)).toBe(50_000_000n);
    expect(await net.balance('WBTC', net.chain.feeAddress)).toBe(15_000n);
    expect(await net.balance('USDC', net.seller.payoutAddress)).toBe(99_990_000_001n);
    expect(await net.balance('USDC', net.buyer.wallet)).toBe(30_000_000_000n);
    expect(await net.balance('USDC', net.chain.feeAddress)).toBe(10_000_000n);
    const [instruction] = await net.database.db
      .select()
      .from(schema.escrowInstructions)
      .where(eq(schema.escrowInstructions.dealId, dealId));
    expect(instruction?.status).toBe('executed');
    expect(await net.database.db.select().from(schema.staffAlerts)).toEqual([]);
  });

  it('refuses a release once the escrow’s on-chain deadline is near; the refund decided instead returns each deposit', async () => {
    const { dealId, deposit } = await openedEscrow({
      assetSymbol: 'WETH',
      assetAmount,
      stableSymbol: 'USDC',
      stableAmount,
    });
    await net.pay(net.seller, 'WETH', deposit.asset, assetAmount);
    await net.pay(net.buyer, 'USDC', deposit.stable, stableAmount);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
    const opened = await net.call('POST', `/api/v1/deals/${dealId}/disputes`, net.seller.token, {
      reason: 'The buyer does not answer since the escrow was funded.',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const disputeId = opened.json().id;
    const caseOf = async (token: string) =>
      (await net.call('GET', `/api/v1/staff/disputes/${disputeId}`, token)).json();
    const first = await createTestTrader(net.app, { roles: ['mediator'] });
    const decideBy = new Date((await caseOf(first.token)).escrow_decide_by);
    // An hour before the legs' on-chain deadline (funding deadline plus settlement window).
    const [legRow] = await net.database.db
      .select()
      .from(schema.escrowLegs)
      .where(eq(schema.escrowLegs.depositAddress, deposit.asset));
    expect(decideBy.getTime()).toBe(legRow!.refundAfter!.getTime() - hour);

    await net.clock.advance(decideBy.getTime() - net.clock.now.getTime() + 1_000);
    const mediator = await createTestTrader(net.app, { roles: ['mediator'] });
    expect(
      (await net.call('POST', `/api/v1/staff/disputes/${disputeId}/assign`, mediator.token)).statusCode,
    ).toBe(200);
    const rationale = 'The seller delivered; the buyer stopped answering after funding.';
    const release = await net.call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
      decision: 'release',
      rationale,
    });
    expect(release.statusCode, release.body).toBe(409);
    expect(release.json().error).toMatchObject({
      code: 'CONFLICT',
      details: { reason: 'settlement_window_closed', decision: 'release', decide_by: decideBy.toISOString() },
    });
    expect(release.json().error.message).toContain('Only a refund can be decided');
    // Nothing changed: the dispute is open, nothing is queued for the escrow.
    expect(await dealStatus(net.database, dealId)).toBe('disputed');
    expect(
      await net.database.db
        .select()
        .from(schema.escrowInstructions)
        .where(eq(schema.escrowInstructions.dealId, dealId)),
    ).toEqual([]);

    const refund = await net.call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
      decision: 'refund',
      rationale,
    });
    expect(refund.statusCode, refund.body).toBe(200);
    const sellerBefore = await net.balance('WETH', net.seller.wallet);
    const buyerBefore = await net.balance('USDC', net.buyer.wallet);
    await net.app.escrow.tick();
    await approve(net.seller, dealId, 'asset');
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => (await view(net.buyer, dealId)).status === 'refunded');
    expect((await net.balance('WETH', net.seller.wallet)) - sellerBefore).toBe(assetAmount);
    expect((await net.balance('USDC', net.buyer.wallet)) - buyerBefore).toBe(stableAmount);
  });
});

describe('under- and over-funding', () => {
  // Stable leg 10 000 USDC = 10_000_000_000 base units, paid as 9_999_999_000 (1 000 short), then
  // 1_007 more: 10_000_000_007 received, 7 over. Settlement: seller gets 10_000_000_000 − fee,
  // fee = floor(10_000_000_000 / 10_000) = 1_000_000, and the 7 over go back to the buyer.
  // Asset leg 0.25 WETH = 250_000_000_000_000_000 wei: fee 25_000_000_000_000.
  const assetAmount = 250_000_000_000_000_000n;
  const stableAmount = 10_000_000_000n;

  it('keeps a short leg partially funded (INSUFFICIENT_BALANCE) and returns the excess at settlement', async () => {
    const { dealId, deposit } = await openedEscrow({
      assetSymbol: 'WETH',
      assetAmount,
      stableSymbol: 'USDC',
      stableAmount,
    });
    // The parties' addresses are shared with the tests above: compare what changed.
    const before = {
      fee: await net.balance('USDC', net.chain.feeAddress),
      seller: await net.balance('USDC', net.seller.payoutAddress),
      buyerWallet: await net.balance('USDC', net.buyer.wallet),
      buyer: await net.balance('WETH', net.buyer.payoutAddress),
    };
    await net.pay(net.seller, 'WETH', deposit.asset, assetAmount);
    await net.pay(net.buyer, 'USDC', deposit.stable, 9_999_999_000n);
    await net.settle(async () => leg(await view(net.buyer, dealId), 'stable').state === 'partially_funded');
    expect(leg(await view(net.buyer, dealId), 'stable').received).toBe('9999999000');
    expect(await dealStatus(net.database, dealId)).toBe('terms_agreed');

    const early = await net.call('POST', '/api/v1/escrow/release', net.buyer.token, {
      deal_id: dealId,
      leg: 'stable',
      signature: `0x${'11'.repeat(65)}`,
    });
    expect(early.statusCode).toBe(422);
    expect(early.json().error).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { required: '10000000000', available: '9999999000', chain: 'ETH' },
    });

    await net.pay(net.buyer, 'USDC', deposit.stable, 1_007n);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
    expect(leg(await view(net.buyer, dealId), 'stable').received).toBe('10000000007');
    await approve(net.seller, dealId, 'asset');
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');

    expect((await net.balance('USDC', net.seller.payoutAddress)) - before.seller).toBe(
      stableAmount - 1_000_000n,
    );
    expect((await net.balance('USDC', net.chain.feeAddress)) - before.fee).toBe(1_000_000n);
    // The wallet was minted what it paid, so the 7 over are what it gained.
    expect((await net.balance('USDC', net.buyer.wallet)) - before.buyerWallet).toBe(7n);
    expect(await net.balance('USDC', deposit.stable)).toBe(0n);
    expect((await net.balance('WETH', net.buyer.payoutAddress)) - before.buyer).toBe(
      assetAmount - 25_000_000_000_000n,
    );
  });
});
