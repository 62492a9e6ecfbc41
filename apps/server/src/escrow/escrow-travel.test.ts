import { schema } from '@covenant/db';
import type { Meeting, TravelItem } from '@covenant/domain';
import { typedDataFromJson } from '@covenant/escrow/ethereum';
import { eq } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader, type TestTrader } from '../testing/create-test-trader.js';
import { escrowSteps } from '../testing/escrow-steps.js';
import {
  dealStatus,
  type EscrowDevnet,
  type EscrowParty,
  startEscrowDevnet,
} from '../testing/start-escrow-devnet.js';

// Travel for a deal's meeting paid out of the stable leg's escrow on Ethereum, then the settlement
// paying the seller the rest, every amount checked on-chain to the base unit.
//
// Stable leg: 3,000.000000 USDC = 3_000_000_000 base units, deposited by the buyer.
//   fee = floor(3_000_000_000 / 10_000) = 300_000 (0.30 USDC), on the traded amount, travel or not.
// Hotel quote: 250.000000 USDC = 250_000_000, paid to the hotel's address, no fee.
// travel_paid_by seller: the seller bears all of it.
//   seller receives 3_000_000_000 − 300_000 − 250_000_000 = 2_749_700_000
//   books: deposits 3_000_000_000 = travel 250_000_000 + payout 2_749_700_000 + fee 300_000 + refunds 0
const assetAmount = 1_000_000_000_000_000_000n;
const stableAmount = 3_000_000_000n;
const stableFee = 300_000n;
const hotel = 250_000_000n;

let net: EscrowDevnet;
let concierge: TestTrader;
const steps = escrowSteps(() => net);

const meeting = (paidBy: Meeting['travel_paid_by']): Meeting => ({
  location: 'Zurich, Baur au Lac',
  latitude: '47.3667',
  longitude: '8.5392',
  starts_on: net.clock.now.toISOString().slice(0, 10),
  duration: '1-2',
  travel_paid_by: paidBy,
});

beforeAll(async () => {
  net = await startEscrowDevnet();
  concierge = await createTestTrader(net.app, { roles: ['concierge'] });
});

afterAll(async () => {
  await net?.close();
});

async function fundedDeal(paidBy: Meeting['travel_paid_by'], stableDeposit = stableAmount) {
  const { dealId, deposit } = await steps.openedEscrow({
    assetSymbol: 'WETH',
    assetAmount,
    stableSymbol: 'USDC',
    stableAmount,
    meeting: meeting(paidBy),
  });
  await net.pay(net.seller, 'WETH', deposit.asset, assetAmount);
  await net.pay(net.buyer, 'USDC', deposit.stable, stableDeposit);
  await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
  return { dealId, deposit };
}

async function quotedItem(dealId: string, amount: bigint, payee: string): Promise<string> {
  const requested = await net.call('POST', `/api/v1/deals/${dealId}/travel`, net.buyer.token, {
    kind: 'hotel',
    traveller: 'buyer',
    details: 'Two nights near the venue, check-in on the first day of the meeting',
  });
  expect(requested.statusCode, requested.body).toBe(201);
  const itemId: string = requested.json().id;
  const quoted = await net.call('POST', `/api/v1/staff/travel/${itemId}/quote`, concierge.token, {
    provider: 'Baur au Lac',
    description: 'Two nights, deluxe room',
    amount: amount.toString(),
    payee_address: payee,
  });
  expect(quoted.statusCode, quoted.body).toBe(200);
  return itemId;
}

const itemOf = async (party: EscrowParty, dealId: string, itemId: string) => {
  const response = await net.call('GET', `/api/v1/deals/${dealId}/travel`, party.token);
  expect(response.statusCode, response.body).toBe(200);
  const item = (response.json().data as TravelItem[]).find((candidate) => candidate.id === itemId);
  if (!item) throw new Error(`no travel item ${itemId}`);
  return item;
};
const approve = (party: EscrowParty, dealId: string, itemId: string, body: Record<string, unknown> = {}) =>
  net.call('POST', `/api/v1/deals/${dealId}/travel/${itemId}/approve`, party.token, body);

describe('a hotel paid from the stable leg, the seller bearing it', () => {
  const payee = privateKeyToAccount(generatePrivateKey()).address;
  let dealId: string;
  let itemId: string;

  it('builds the payout once quoted, for the buyer to sign', async () => {
    ({ dealId } = await fundedDeal('seller'));
    itemId = await quotedItem(dealId, hotel, payee);
    await net.app.escrow.tick();
    const item = await itemOf(net.buyer, dealId, itemId);
    expect(item.status).toBe('quoted');
    expect(item.signing_payload?.format).toBe('eip712');
  });

  it('pays nothing on one approval, and a second approval by the same party changes nothing', async () => {
    const first = await approve(net.seller, dealId, itemId);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ changed: true });
    const again = await approve(net.seller, dealId, itemId);
    expect(again.json()).toEqual({ changed: false });
    await net.app.escrow.tick();
    expect(await net.balance('USDC', payee)).toBe(0n);
    const unsigned = await approve(net.buyer, dealId, itemId);
    expect(unsigned.statusCode).toBe(400);
    const audit = await net.database.db
      .select()
      .from(schema.dealAuditEntries)
      .where(eq(schema.dealAuditEntries.dealId, dealId));
    expect(audit.filter((entry) => entry.action === 'travel_approved')).toHaveLength(1);
  });

  it('refuses a signature by anyone but the buyer’s escrow key', async () => {
    const item = await itemOf(net.buyer, dealId, itemId);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const signature = await stranger.signTypedData(typedDataFromJson(item.signing_payload?.data));
    const refused = await approve(net.buyer, dealId, itemId, { signature });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('INVALID_SIGNATURE');
  });

  it('pays the hotel exactly once both approved, and records it', async () => {
    const item = await itemOf(net.buyer, dealId, itemId);
    const signature = await net.buyer.escrowKey.signTypedData(typedDataFromJson(item.signing_payload?.data));
    const approved = await approve(net.buyer, dealId, itemId, { signature });
    expect(approved.statusCode, approved.body).toBe(200);
    await net.settle(async () => (await itemOf(net.buyer, dealId, itemId)).status === 'paid', 20);
    expect(await net.balance('USDC', payee)).toBe(hotel);
    const paid = await itemOf(net.seller, dealId, itemId);
    expect(paid.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await dealStatus(net.database, dealId)).toBe('escrow_funded');
  });

  it('settles the rest after the meeting: the seller receives the stable amount less fee and hotel', async () => {
    const sellerBefore = await net.balance('USDC', net.seller.payoutAddress);
    const feeAddress = net.chain.feeAddress;
    const feeBefore = await net.balance('USDC', feeAddress);
    for (const party of [net.buyer, net.seller]) {
      const waived = await net.call('POST', `/api/v1/deals/${dealId}/meeting/waive`, party.token);
      expect(waived.statusCode).toBe(200);
    }
    await net.app.escrow.tick();
    await steps.approve(net.buyer, dealId, 'stable');
    await steps.approve(net.seller, dealId, 'asset');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed', 30);
    expect((await net.balance('USDC', net.seller.payoutAddress)) - sellerBefore).toBe(
      stableAmount - stableFee - hotel,
    );
    expect((await net.balance('USDC', feeAddress)) - feeBefore).toBe(stableFee);
    const [escrow] = await net.database.db
      .select()
      .from(schema.escrows)
      .where(eq(schema.escrows.dealId, dealId));
    expect(await net.balance('USDC', (await steps.view(net.buyer, dealId)).legs[1]!.deposit_address)).toBe(
      0n,
    );
    const ledger = await net.database.db
      .select()
      .from(schema.escrowLedgerEntries)
      .where(eq(schema.escrowLedgerEntries.escrowId, escrow!.id));
    const sum = (kind: string) =>
      ledger
        .filter((entry) => entry.leg === 'stable' && entry.kind === kind)
        .reduce((total, entry) => total + BigInt(entry.amount), 0n);
    expect(sum('deposit')).toBe(stableAmount);
    expect(sum('travel')).toBe(hotel);
    expect(sum('travel') + sum('payout') + sum('fee') + sum('refund')).toBe(sum('deposit'));
    expect(await net.database.db.select().from(schema.staffAlerts)).toEqual([]);
  });
});

describe('quotes the escrow cannot pay', () => {
  it('refuses a quote larger than what remains for the seller, and asks the buyer for its share first', async () => {
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const { dealId } = await fundedDeal('seller');
    // The seller receives at most 3,000 − 0.30 = 2,999.70 USDC: 2,999.700001 is more than the escrow can pay.
    const tooLarge = await quotedItem(dealId, stableAmount - stableFee + 1n, payee);
    const refused = await approve(net.seller, dealId, tooLarge);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'TRAVEL_NOT_PAYABLE',
      message:
        'This quote is larger than what remains in the escrow for the seller: it cannot be paid from it',
    });

    const split = await fundedDeal('split');
    const item = await quotedItem(split.dealId, hotel, payee);
    const short = await approve(net.seller, split.dealId, item);
    expect(short.statusCode).toBe(409);
    // Split: the buyer's half, 125 USDC, must be deposited beyond the stable amount first.
    expect(short.json().error.details).toMatchObject({ shortfall: '125000000' });
    expect(short.json().error.message).toContain('send 125 USDC more');
  });

  it('freezes travel payouts while the deal is disputed', async () => {
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const { dealId } = await fundedDeal('seller');
    const itemId = await quotedItem(dealId, hotel, payee);
    await net.app.escrow.tick();
    expect((await approve(net.seller, dealId, itemId)).statusCode).toBe(200);
    const opened = await net.call('POST', `/api/v1/deals/${dealId}/disputes`, net.buyer.token, {
      reason: 'We disagree on the hotel booked for the meeting.',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const item = await itemOf(net.buyer, dealId, itemId);
    const signature = await net.buyer.escrowKey.signTypedData(typedDataFromJson(item.signing_payload?.data));
    const frozen = await approve(net.buyer, dealId, itemId, { signature });
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json().error.message).toBe('Travel payouts are frozen while the deal is disputed');
    await net.settle(async () => true);
    expect(await net.balance('USDC', payee)).toBe(0n);
  });
});

/** Opens a dispute by the buyer and has a new mediator take it; the mediator and the dispute's id. */
async function disputed(dealId: string) {
  const opened = await net.call('POST', `/api/v1/deals/${dealId}/disputes`, net.buyer.token, {
    reason: 'We disagree on the travel booked for the meeting.',
  });
  expect(opened.statusCode, opened.body).toBe(201);
  const mediator = await createTestTrader(net.app, { roles: ['mediator'] });
  const disputeId: string = opened.json().id;
  const assigned = await net.call('POST', `/api/v1/staff/disputes/${disputeId}/assign`, mediator.token);
  expect(assigned.statusCode, assigned.body).toBe(200);
  return { mediator, disputeId };
}

async function approveBoth(dealId: string, itemId: string) {
  expect((await approve(net.seller, dealId, itemId)).statusCode).toBe(200);
  const item = await itemOf(net.buyer, dealId, itemId);
  const signature = await net.buyer.escrowKey.signTypedData(typedDataFromJson(item.signing_payload?.data));
  const approved = await approve(net.buyer, dealId, itemId, { signature });
  expect(approved.statusCode, approved.body).toBe(200);
}

describe('two travel items quoted at once', () => {
  it('pays the one approved first, then builds and pays the other', async () => {
    const hotelPayee = privateKeyToAccount(generatePrivateKey()).address;
    const flightPayee = privateKeyToAccount(generatePrivateKey()).address;
    const { dealId } = await fundedDeal('seller');
    const first = await quotedItem(dealId, hotel, hotelPayee);
    // Quoted a second later (the test clock stands still otherwise): the older quote goes first.
    await net.clock.advance(1_000);
    const second = await quotedItem(dealId, 100_000_000n, flightPayee);
    await net.app.escrow.tick();
    // The older quote's payout is built first; both parties approve it while the other waits quoted.
    await approveBoth(dealId, first);
    await net.settle(async () => (await itemOf(net.buyer, dealId, first)).status === 'paid', 20);
    expect(await net.balance('USDC', hotelPayee)).toBe(hotel);
    // Then the other's payout is built, approved and paid.
    await net.settle(async () => (await itemOf(net.buyer, dealId, second)).signing_payload !== null);
    await approveBoth(dealId, second);
    await net.settle(async () => (await itemOf(net.buyer, dealId, second)).status === 'paid', 20);
    expect(await net.balance('USDC', flightPayee)).toBe(100_000_000n);
  });
});

describe('travel and a mediator’s decision', () => {
  it('supersedes travel approved but not sent when the dispute is decided, and refunds both legs', async () => {
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const { dealId } = await fundedDeal('seller');
    const itemId = await quotedItem(dealId, hotel, payee);
    await net.app.escrow.tick();
    // As if both approved it and the buyer disputed the deal before the engine's next pass sent it
    // (a dispute freezes travel not sent yet).
    const [row] = await net.database.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.id, itemId));
    const [payout] = await net.database.db
      .update(schema.escrowPayouts)
      .set({ status: 'ready' })
      .where(eq(schema.escrowPayouts.id, row!.payoutId!))
      .returning();
    await net.database.db
      .update(schema.travelItems)
      .set({ status: 'approved' })
      .where(eq(schema.travelItems.id, itemId));
    const { mediator, disputeId } = await disputed(dealId);
    const decided = await net.call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
      decision: 'refund',
      rationale: 'The meeting did not take place; both deposits go back.',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    await net.app.escrow.tick();
    // The decision is carried out (it waited for that travel for ever): the travel never goes.
    const [superseded] = await net.database.db
      .select()
      .from(schema.escrowPayouts)
      .where(eq(schema.escrowPayouts.id, payout!.id));
    expect(superseded?.status).toBe('superseded');
    expect((await itemOf(net.buyer, dealId, itemId)).status).toBe('cancelled');
    const buyerBefore = await net.balance('USDC', net.buyer.wallet);
    await steps.approve(net.buyer, dealId, 'stable');
    await steps.approve(net.seller, dealId, 'asset');
    await net.settle(async () => (await steps.view(net.buyer, dealId)).status === 'refunded', 30);
    expect((await net.balance('USDC', net.buyer.wallet)) - buyerBefore).toBe(stableAmount);
    expect(await net.balance('USDC', payee)).toBe(0n);
  });

  it('refuses a split giving the seller more of the stable leg than travel left in it', async () => {
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const { dealId } = await fundedDeal('seller');
    const itemId = await quotedItem(dealId, hotel, payee);
    await net.app.escrow.tick();
    await approveBoth(dealId, itemId);
    await net.settle(async () => (await itemOf(net.buyer, dealId, itemId)).status === 'paid', 20);
    const { mediator, disputeId } = await disputed(dealId);
    // The mediator's case shows what travel took out of the leg, and whose share it was.
    const shown = await net.call('GET', `/api/v1/staff/disputes/${disputeId}`, mediator.token);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().escrow_travel).toEqual([
      { leg: 'stable', paid: '250000000', charged_to_receiver: '250000000', held: '2750000000' },
    ]);
    // The stable leg held 3,000 USDC; the hotel took 250: 2,750 are left for the seller's share.
    const decide = (seller: bigint) =>
      net.call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
        decision: 'split',
        split: {
          asset: { buyer: assetAmount.toString(), seller: '0' },
          stable: { buyer: (stableAmount - seller).toString(), seller: seller.toString() },
        },
        rationale: 'The seller delivered; the buyer keeps nothing of the stable leg.',
      });
    const refused = await decide(stableAmount);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message:
        "Travel of 250 USDC was paid out of the stable leg, which now holds 2750 USDC: the seller's share of it cannot exceed that. Lower the seller's share",
      details: {
        reason: 'split_beyond_travel',
        leg: 'stable',
        required: '3000000000',
        available: '2750000000',
        travel_paid: '250000000',
      },
    });
    const fits = await decide(stableAmount - hotel);
    expect(fits.statusCode, fits.body).toBe(200);
    await net.app.escrow.tick();
    const [instruction] = await net.database.db
      .select()
      .from(schema.escrowInstructions)
      .where(eq(schema.escrowInstructions.dealId, dealId));
    expect(instruction?.status).toBe('executing');
  });
});
