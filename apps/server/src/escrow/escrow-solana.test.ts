import { schema } from '@covenant/db';
import { associatedTokenAccount, type SolanaCustody } from '@covenant/escrow/solana';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader } from '../testing/create-test-trader.js';
import { escrowSteps } from '../testing/escrow-steps.js';
import { freshSolanaAddress, signSolanaMessage } from '../testing/solana-test-wallet.js';
import { dealStatus, type EscrowDevnet, startEscrowDevnet } from '../testing/start-escrow-devnet.js';

// Solana escrow through the whole server against the local Solana devnet (LiteSVM behind the
// Solana JSON-RPC; deposits count at 2 slots on top), next to the Ethereum devnet. One devnet per
// file; the parties are reused, so amounts at shared addresses (the fee address above all) are
// compared as differences.
let net: EscrowDevnet;
const steps = escrowSteps(() => net);
const { view, leg, approveSolana, openedEscrow } = steps;

beforeAll(async () => {
  net = await startEscrowDevnet({ solana: true });
});

afterAll(async () => {
  await net?.close();
});

const sol = () => net.solana!;

/**
 * Every base unit of the deal's legs accounted: per leg, the confirmed deposits equal the confirmed
 * payouts + fees + refunds + sweeps, and no staff alert was raised.
 */
async function expectBooksBalance(dealId: string) {
  const [escrow] = await net.database.db
    .select()
    .from(schema.escrows)
    .where(eq(schema.escrows.dealId, dealId));
  const entries = await net.database.db
    .select()
    .from(schema.escrowLedgerEntries)
    .where(eq(schema.escrowLedgerEntries.escrowId, escrow!.id));
  for (const name of ['asset', 'stable'] as const) {
    const sum = (kinds: string[]) =>
      entries
        .filter((entry) => entry.leg === name && entry.status === 'confirmed' && kinds.includes(entry.kind))
        .reduce((total, entry) => total + BigInt(entry.amount), 0n);
    expect(sum(['deposit']), `${name} leg`).toBe(
      sum(['travel', 'payout', 'fee', 'refund', 'sweep', 'network_fee']),
    );
  }
  expect(await net.database.db.select().from(schema.staffAlerts)).toEqual([]);
  return entries;
}

describe('a SOL-for-USDC deal, both legs on Solana, settles through the API', () => {
  // Asset leg 2.500000007 SOL = 2_500_000_007 lamports, deposited by the seller.
  //   fee = floor(2_500_000_007 / 10_000) = 250_000 lamports to the SOL fee address
  //   buyer receives 2_500_000_007 − 250_000 = 2_499_750_007 lamports
  // Stable leg 375.123456 USDC = 375_123_456 base units, deposited by the buyer.
  //   fee = floor(375_123_456 / 10_000) = 37_512 to the fee address's USDC account
  //   seller receives 375_123_456 − 37_512 = 375_085_944
  const assetAmount = 2_500_000_007n;
  const stableAmount = 375_123_456n;

  it('pays each recipient amount − fee and the fee address exactly the fee, in SOL and in USDC', async () => {
    const { dealId, deposit } = await openedEscrow({
      assetChain: 'SOL',
      assetSymbol: 'SOL',
      assetAmount,
      stableChain: 'SOL',
      stableSymbol: 'USDC',
      stableAmount,
    });
    const feeAddress = sol().info.feeAddress;
    const feeLamportsBefore = await sol().lamports(feeAddress);
    const feeUsdcBefore = await sol().tokens('USDC', feeAddress);

    // The custody shown: a 2-of-3 multisig of the parties' keys and the platform's owns each account.
    const opened = await view(net.seller, dealId);
    const assetCustody = leg(opened, 'asset').custody as SolanaCustody;
    expect(assetCustody.public_keys).toMatchObject({
      buyer: net.buyer.solana!.address,
      seller: net.seller.solana!.address,
    });
    expect(assetCustody.threshold).toBe(2);
    expect(assetCustody.token_account).toBe(deposit.asset);
    expect(assetCustody.solana_pay_recipient).toBe(deposit.asset);
    const stableCustody = leg(opened, 'stable').custody as SolanaCustody;
    expect(stableCustody.token_account).toBe(deposit.stable);
    expect(deposit.stable).toBe(
      await associatedTokenAccount(stableCustody.multisig, sol().devnet.mints.USDC),
    );
    expect(await sol().exists(deposit.asset)).toBe(true);
    expect(await sol().exists(deposit.stable)).toBe(true);

    await sol().pay('SOL', deposit.asset, assetAmount);
    await sol().pay('USDC', deposit.stable, stableAmount);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');

    const signed = await approveSolana(net.seller, dealId, 'asset');
    expect(signed.summary.transfers).toEqual([
      { kind: 'payout', to: net.buyer.solana!.payoutAddress, amount: '2499750007' },
      { kind: 'fee', to: feeAddress, amount: '250000' },
    ]);
    // The buyer is not asked to sign the asset leg.
    expect(leg(await view(net.buyer, dealId), 'asset').signing_payload).toBeNull();
    await approveSolana(net.buyer, dealId, 'stable');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed', 30);

    expect(await sol().lamports(net.buyer.solana!.payoutAddress)).toBe(2_499_750_007n);
    expect((await sol().lamports(feeAddress)) - feeLamportsBefore).toBe(250_000n);
    expect(await sol().tokens('USDC', net.seller.solana!.payoutAddress)).toBe(375_085_944n);
    expect((await sol().tokens('USDC', feeAddress)) - feeUsdcBefore).toBe(37_512n);
    // Both leg accounts are closed: their rent went back to the relayer.
    expect(await sol().exists(deposit.asset)).toBe(false);
    expect(await sol().exists(deposit.stable)).toBe(false);
    const done = await view(net.buyer, dealId);
    expect(done.status).toBe('settled');
    await expectBooksBalance(dealId);
  });
});

describe('a SOL payment to a settled SOL leg goes back to the depositor', () => {
  it("sweeps a late deposit to the closed wSOL address back to the seller's refund address, and the books balance", async () => {
    // A SOL-for-USDC deal, funded exactly and completed: the asset leg's wSOL account is closed.
    const assetAmount = 1_000_000_000n;
    const { dealId, deposit } = await openedEscrow({
      assetChain: 'SOL',
      assetSymbol: 'SOL',
      assetAmount,
      stableChain: 'SOL',
      stableSymbol: 'USDC',
      stableAmount: 50_000_000n,
    });
    await sol().pay('SOL', deposit.asset, assetAmount);
    await sol().pay('USDC', deposit.stable, 50_000_000n);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
    await approveSolana(net.seller, dealId, 'asset');
    await approveSolana(net.buyer, dealId, 'stable');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed', 30);
    expect(await sol().exists(deposit.asset)).toBe(false);

    // The seller pays the asset leg again. The address now holds a plain system account whose
    // key the platform derives from the deal and leg; the seller's refund address holds nothing
    // (a fresh wallet), so the late payment must be at least the rent-exempt minimum (890,880)
    // to land at all — and then it can be returned whole.
    const refundAddress = net.seller.solana!.refundAddress;
    const refundBefore = await sol().lamports(refundAddress);
    const late = 4_321_987n;
    const lateRef = await sol().pay('SOL', deposit.asset, late);
    const ledger = async () =>
      net.database.db
        .select()
        .from(schema.escrowLedgerEntries)
        .where(eq(schema.escrowLedgerEntries.txRef, lateRef));
    const swept = async () => {
      const [escrow] = await net.database.db
        .select()
        .from(schema.escrows)
        .where(eq(schema.escrows.dealId, dealId));
      const rows = await net.database.db
        .select()
        .from(schema.escrowLedgerEntries)
        .where(eq(schema.escrowLedgerEntries.escrowId, escrow!.id));
      return rows.some((entry) => entry.kind === 'sweep' && entry.status === 'confirmed');
    };
    await net.settle(swept, 30);

    expect((await sol().lamports(refundAddress)) - refundBefore).toBe(late);
    expect(await sol().lamports(deposit.asset)).toBe(0n);
    expect(
      (await ledger()).map(({ leg: name, kind, amount, status }) => ({ name, kind, amount, status })),
    ).toEqual([{ name: 'asset', kind: 'deposit', amount: late.toString(), status: 'confirmed' }]);
    const entries = await expectBooksBalance(dealId);
    const sweeps = entries.filter((entry) => entry.kind === 'sweep');
    expect(
      sweeps.map(({ leg: name, amount, counterpartyAddress, status }) => [
        name,
        amount,
        counterpartyAddress,
        status,
      ]),
    ).toEqual([['asset', late.toString(), refundAddress, 'confirmed']]);
    // Another pass finds nothing left to return and raises nothing; the leg stays released.
    await net.app.escrow.tick();
    expect(await net.database.db.select().from(schema.staffAlerts)).toEqual([]);
    expect(leg(await view(net.seller, dealId), 'asset').state).toBe('released');
    expect((await sol().lamports(refundAddress)) - refundBefore).toBe(late);
  });
});

describe('a USDC payment to a settled USDC leg goes back to the depositor', () => {
  it('returns a late deposit to the re-created leg account by a payout either party approves, and the books balance', async () => {
    const { dealId, deposit } = await openedEscrow({
      assetChain: 'SOL',
      assetSymbol: 'SOL',
      assetAmount: 1_000_000_000n,
      stableChain: 'SOL',
      stableSymbol: 'USDC',
      stableAmount: 20_000_000n,
    });
    await sol().pay('SOL', deposit.asset, 1_000_000_000n);
    await sol().pay('USDC', deposit.stable, 20_000_000n);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
    await approveSolana(net.seller, dealId, 'asset');
    await approveSolana(net.buyer, dealId, 'stable');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed', 30);
    expect(await sol().exists(deposit.stable)).toBe(false);

    // The buyer pays again as its Solana Pay request says: to the multisig's associated USDC account,
    // which the payment re-creates (still owned by the 2-of-3 multisig).
    const stableCustody = leg(await view(net.buyer, dealId), 'stable').custody as SolanaCustody;
    const refundAddress = net.buyer.solana!.refundAddress;
    const refundBefore = await sol().tokens('USDC', refundAddress);
    await sol().devnet.faucet.fundToken(stableCustody.multisig, sol().devnet.mints.USDC, 1_500_000n);
    expect(await sol().exists(deposit.stable)).toBe(true);
    await net.settle(async () => leg(await view(net.seller, dealId), 'stable').signing_payload !== null, 30);
    // Its destination is fixed (the buyer's refund address), so either party may approve: the seller does.
    const signed = await approveSolana(net.seller, dealId, 'stable');
    expect(signed.summary.transfers).toEqual([{ kind: 'refund', to: refundAddress, amount: '1500000' }]);
    await net.settle(
      async () => (await sol().tokens('USDC', refundAddress)) - refundBefore === 1_500_000n,
      30,
    );
    await net.settle(async () => {
      const payouts = await net.database.db
        .select()
        .from(schema.escrowPayouts)
        .where(eq(schema.escrowPayouts.source, 'late_deposit'));
      return payouts.some((payout) => payout.status === 'confirmed');
    }, 30);
    expect(await sol().exists(deposit.stable)).toBe(false);
    expect(leg(await view(net.buyer, dealId), 'stable').state).toBe('released');
    await expectBooksBalance(dealId);
  });
});

describe('travel paid from a Solana stable leg, shared half and half', () => {
  // Stable leg 375.123456 USDC = 375_123_456, fee floor(375_123_456 / 10_000) = 37_512.
  // Hotel 100.000001 USDC = 100_000_001, split: the seller bears floor(100_000_001 / 2) = 50_000_000,
  //   the buyer 50_000_001, deposited on top of the stable amount: 375_123_456 + 50_000_001 = 425_123_457.
  // Settlement: the seller receives 375_123_456 − 37_512 − 50_000_000 = 325_085_944; the buyer gets
  //   back 425_123_457 − 100_000_001 − (375_123_456 − 50_000_000) = 0.
  // Books: 425_123_457 deposited = 100_000_001 travel + 325_085_944 payout + 37_512 fee.
  it('pays the hotel without closing the leg, then settles the rest exactly', async () => {
    const concierge = await createTestTrader(net.app, { roles: ['concierge'] });
    const { dealId, deposit } = await openedEscrow({
      assetChain: 'SOL',
      assetSymbol: 'SOL',
      assetAmount: 1_000_000_000n,
      stableChain: 'SOL',
      stableSymbol: 'USDC',
      stableAmount: 375_123_456n,
      meeting: {
        location: 'Lisbon',
        latitude: '38.7223',
        longitude: '-9.1393',
        starts_on: net.clock.now.toISOString().slice(0, 10),
        duration: '2-5',
        travel_paid_by: 'split',
      },
    });
    await sol().pay('SOL', deposit.asset, 1_000_000_000n);
    await sol().pay('USDC', deposit.stable, 425_123_457n);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');

    const hotel = freshSolanaAddress();
    const requested = await net.call('POST', `/api/v1/deals/${dealId}/travel`, net.seller.token, {
      kind: 'hotel',
      traveller: 'seller',
      details: 'Four nights in Lisbon',
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const itemId: string = requested.json().id;
    const quoted = await net.call('POST', `/api/v1/staff/travel/${itemId}/quote`, concierge.token, {
      provider: 'Hotel Avenida',
      description: 'Four nights',
      amount: '100000001',
      payee_address: hotel,
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const itemOf = async () =>
      (
        (await net.call('GET', `/api/v1/deals/${dealId}/meeting`, net.buyer.token)).json().travel as {
          id: string;
          status: string;
          signing_payload: { format: string; data: string; summary: { transfers: unknown[] } } | null;
        }[]
      ).find((item) => item.id === itemId)!;
    await net.settle(async () => (await itemOf()).signing_payload !== null);
    const payload = (await itemOf()).signing_payload!;
    expect(payload.format).toBe('solana_message');
    expect(payload.summary.transfers).toEqual([{ kind: 'travel', to: hotel, amount: '100000001' }]);

    const bySeller = await net.call(
      'POST',
      `/api/v1/deals/${dealId}/travel/${itemId}/approve`,
      net.seller.token,
      {},
    );
    expect(bySeller.statusCode, bySeller.body).toBe(200);
    const byBuyer = await net.call(
      'POST',
      `/api/v1/deals/${dealId}/travel/${itemId}/approve`,
      net.buyer.token,
      {
        signature: signSolanaMessage(payload.data, net.buyer.solana!.privateKey),
      },
    );
    expect(byBuyer.statusCode, byBuyer.body).toBe(200);
    await net.settle(async () => (await itemOf()).status === 'paid', 30);
    expect(await sol().tokens('USDC', hotel)).toBe(100_000_001n);
    // The leg's account stays open with the rest.
    expect(await sol().exists(deposit.stable)).toBe(true);

    for (const party of [net.buyer, net.seller]) {
      expect((await net.call('POST', `/api/v1/deals/${dealId}/meeting/waive`, party.token)).statusCode).toBe(
        200,
      );
    }
    await net.settle(async () => leg(await view(net.buyer, dealId), 'stable').signing_payload !== null);
    const sellerBefore = await sol().tokens('USDC', net.seller.solana!.payoutAddress);
    const settled = await approveSolana(net.buyer, dealId, 'stable');
    expect(settled.summary.transfers).toEqual([
      { kind: 'payout', to: net.seller.solana!.payoutAddress, amount: '325085944' },
      { kind: 'fee', to: sol().info.feeAddress, amount: '37512' },
    ]);
    // 5 more base units arrive before the seller's approval lets the settlement go: the signed payout,
    // emptying the account, can no longer run. Built again, it returns those 5 to the buyer, and not
    // the hotel's 100_000_001 too: they left the leg already (425_123_462 received − 100_000_001 paid
    // = 325_123_461 held = 325_085_944 + 37_512 + 5).
    const buyerBefore = await sol().tokens('USDC', net.buyer.solana!.refundAddress);
    await sol().pay('USDC', deposit.stable, 5n);
    await net.settle(async () => leg(await view(net.buyer, dealId), 'stable').received === '425123462');
    await approveSolana(net.seller, dealId, 'asset');
    await net.settle(async () => leg(await view(net.buyer, dealId), 'stable').signing_payload !== null);
    const renewed = await approveSolana(net.buyer, dealId, 'stable');
    expect(renewed.summary.transfers).toEqual([
      { kind: 'payout', to: net.seller.solana!.payoutAddress, amount: '325085944' },
      { kind: 'fee', to: sol().info.feeAddress, amount: '37512' },
      { kind: 'refund', to: net.buyer.solana!.refundAddress, amount: '5' },
    ]);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed', 30);
    expect((await sol().tokens('USDC', net.seller.solana!.payoutAddress)) - sellerBefore).toBe(325_085_944n);
    expect((await sol().tokens('USDC', net.buyer.solana!.refundAddress)) - buyerBefore).toBe(5n);
    expect(await sol().exists(deposit.stable)).toBe(false);
    await expectBooksBalance(dealId);
  });
});
