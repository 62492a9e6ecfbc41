import { schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader } from '../testing/create-test-trader.js';
import { escrowSteps } from '../testing/escrow-steps.js';
import { expectBooksBalance } from '../testing/expect-books-balance.js';
import { dealStatus, type EscrowDevnet, startEscrowDevnet } from '../testing/start-escrow-devnet.js';

// Solana legs through the whole server on the local Solana devnet: partial funding, the funding
// deadline's refund, a mediator's split approved by either party (the payout's message names the
// party who signs it, so one is built per party), and a deposit arriving after a payout was signed
// (the payout is built again and approved again). The parties and the fee address are shared by the
// tests: amounts are compared as differences.
let net: EscrowDevnet;
const { view, leg, approveSolana, openedEscrow } = escrowSteps(() => net);
const hour = 3_600_000;

beforeAll(async () => {
  net = await startEscrowDevnet({ solana: true });
});

afterAll(async () => {
  await net?.close();
});

const sol = () => net.solana!;

function solForUsdc(assetAmount: bigint, stableAmount: bigint, fundingDeadlineHours?: number) {
  return {
    assetChain: 'SOL' as const,
    assetSymbol: 'SOL',
    assetAmount,
    stableChain: 'SOL' as const,
    stableSymbol: 'USDC',
    stableAmount,
    ...(fundingDeadlineHours === undefined ? {} : { fundingDeadlineHours }),
  };
}

describe('funding a Solana leg in parts', () => {
  it('keeps the leg partially funded until the rest arrives, then funds the deal', async () => {
    // 3 SOL = 3_000_000_000 lamports paid as 1_000_000_000 then 2_000_000_000.
    const { dealId, deposit } = await openedEscrow(solForUsdc(3_000_000_000n, 90_000_000n));
    await sol().pay('SOL', deposit.asset, 1_000_000_000n);
    await net.settle(async () => leg(await view(net.seller, dealId), 'asset').state === 'partially_funded');
    expect(leg(await view(net.seller, dealId), 'asset').received).toBe('1000000000');
    expect(await dealStatus(net.database, dealId)).toBe('terms_agreed');

    await sol().pay('SOL', deposit.asset, 2_000_000_000n);
    await sol().pay('USDC', deposit.stable, 90_000_000n);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
    const funded = await view(net.seller, dealId);
    expect(leg(funded, 'asset')).toMatchObject({ state: 'funded', received: '3000000000' });
    expect(leg(funded, 'stable')).toMatchObject({ state: 'funded', received: '90000000' });
  });
});

describe('one Solana transaction paying two escrows', () => {
  it('counts each escrow its own deposit (a batched payment funds both deals)', async () => {
    const first = await openedEscrow(solForUsdc(200_000_000n, 30_000_000n));
    const second = await openedEscrow(solForUsdc(300_000_000n, 45_000_000n));
    await sol().pay('SOL', first.deposit.asset, 200_000_000n);
    await sol().pay('SOL', second.deposit.asset, 300_000_000n);
    // An exchange's batched withdrawal: both stable legs in one transaction.
    await sol().devnet.faucet.fundTokenAccounts(sol().devnet.mints.USDC, [
      { tokenAccount: first.deposit.stable, amount: 30_000_000n },
      { tokenAccount: second.deposit.stable, amount: 45_000_000n },
    ]);
    await net.settle(
      async () =>
        (await dealStatus(net.database, first.dealId)) === 'escrow_funded' &&
        (await dealStatus(net.database, second.dealId)) === 'escrow_funded',
      30,
    );
    expect(leg(await view(net.buyer, first.dealId), 'stable')).toMatchObject({ received: '30000000' });
    expect(leg(await view(net.buyer, second.dealId), 'stable')).toMatchObject({ received: '45000000' });
  });
});

describe('the funding deadline passes with one Solana leg funded', () => {
  it('cancels the deal and refunds the deposit whole (no fee) once its depositor approves', async () => {
    // 0.75 SOL = 750_000_000 lamports from the seller; the buyer never pays its 60 USDC.
    const { dealId, deposit } = await openedEscrow(solForUsdc(750_000_000n, 60_000_000n, 1));
    const refundAddress = net.seller.solana!.refundAddress;
    const before = await sol().lamports(refundAddress);
    const feeBefore = await sol().lamports(sol().info.feeAddress);
    await sol().pay('SOL', deposit.asset, 750_000_000n);
    await net.settle(async () => leg(await view(net.seller, dealId), 'asset').state === 'funded');

    await net.clock.advance(hour + 1_000);
    await net.app.escrow.tick();
    expect(await dealStatus(net.database, dealId)).toBe('cancelled');
    const cancelled = await view(net.seller, dealId);
    expect(leg(cancelled, 'asset').payout).toMatchObject({ kind: 'refund', source: 'cancellation' });
    // No timelock on Solana: nothing moves without the depositor's signature besides the platform's.
    expect(leg(cancelled, 'asset').refund_after).toBeNull();
    expect(leg(await view(net.buyer, dealId), 'asset').signing_payload).toBeNull();

    const signed = await approveSolana(net.seller, dealId, 'asset');
    expect(signed.summary.transfers).toEqual([{ kind: 'refund', to: refundAddress, amount: '750000000' }]);
    await net.settle(async () => (await view(net.seller, dealId)).status === 'refunded', 30);
    expect((await sol().lamports(refundAddress)) - before).toBe(750_000_000n);
    expect(await sol().lamports(sol().info.feeAddress)).toBe(feeBefore);
    expect(await sol().exists(deposit.asset)).toBe(false);
    await expectBooksBalance(net, dealId);
  });
});

describe('a dispute on Solana legs decided as a split', () => {
  // Asset leg 4 SOL = 4_000_000_000 lamports (seller deposits): buyer 3_000_000_000, seller back 1_000_000_000.
  //   fee on the buyer's share only: floor(3_000_000_000 / 10_000) = 300_000
  //   buyer receives 3_000_000_000 − 300_000 = 2_999_700_000; the seller gets 1_000_000_000 back whole.
  // Stable leg 500.000003 USDC = 500_000_003 (buyer deposits): seller 400_000_003, buyer back 100_000_000.
  //   fee = floor(400_000_003 / 10_000) = 40_000; seller receives 400_000_003 − 40_000 = 399_960_003.
  it('pays each leg as the mediator decided, whichever party approves it, to the base unit', async () => {
    const { dealId, deposit } = await openedEscrow(solForUsdc(4_000_000_000n, 500_000_003n));
    const buyer = net.buyer.solana!;
    const seller = net.seller.solana!;
    const feeAddress = sol().info.feeAddress;
    const before = {
      buyerSol: await sol().lamports(buyer.payoutAddress),
      sellerSol: await sol().lamports(seller.refundAddress),
      feeSol: await sol().lamports(feeAddress),
      sellerUsdc: await sol().tokens('USDC', seller.payoutAddress),
      buyerUsdc: await sol().tokens('USDC', buyer.refundAddress),
      feeUsdc: await sol().tokens('USDC', feeAddress),
    };
    await sol().pay('SOL', deposit.asset, 4_000_000_000n);
    await sol().pay('USDC', deposit.stable, 500_000_003n);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');

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
        asset: { buyer: '3000000000', seller: '1000000000' },
        stable: { buyer: '100000000', seller: '400000003' },
      },
      rationale: 'Both parties performed in part; the evidence supports three quarters of the asset.',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    await net.app.escrow.tick();

    // Each party is asked to sign a message naming its own key, for both legs.
    const sellerView = await view(net.seller, dealId);
    const buyerView = await view(net.buyer, dealId);
    for (const name of ['asset', 'stable'] as const) {
      expect(leg(sellerView, name).signer).toBe(seller.address);
      expect(leg(buyerView, name).signer).toBe(buyer.address);
      expect(leg(sellerView, name).signing_payload).not.toEqual(leg(buyerView, name).signing_payload);
    }
    // The buyer (the asset leg's receiver, not its depositor) approves the asset leg; the seller the stable one.
    await approveSolana(net.buyer, dealId, 'asset');
    await approveSolana(net.seller, dealId, 'stable');
    await net.settle(async () => (await view(net.buyer, dealId)).status === 'settled', 30);

    expect((await sol().lamports(buyer.payoutAddress)) - before.buyerSol).toBe(2_999_700_000n);
    expect((await sol().lamports(seller.refundAddress)) - before.sellerSol).toBe(1_000_000_000n);
    expect((await sol().lamports(feeAddress)) - before.feeSol).toBe(300_000n);
    expect((await sol().tokens('USDC', seller.payoutAddress)) - before.sellerUsdc).toBe(399_960_003n);
    expect((await sol().tokens('USDC', buyer.refundAddress)) - before.buyerUsdc).toBe(100_000_000n);
    expect((await sol().tokens('USDC', feeAddress)) - before.feeUsdc).toBe(40_000n);
    await expectBooksBalance(net, dealId);
  });
});

/** The payloads of the deal's `escrow_payout_rebuilt` events, oldest first. */
async function rebuiltEvents(dealId: string) {
  const rows = await net.database.db
    .select({ payload: schema.dealAuditEntries.payload })
    .from(schema.dealAuditEntries)
    .where(
      and(
        eq(schema.dealAuditEntries.dealId, dealId),
        eq(schema.dealAuditEntries.action, 'escrow_payout_rebuilt'),
      ),
    )
    .orderBy(schema.dealAuditEntries.seq);
  return rows.map((row) => row.payload as Record<string, unknown>);
}

describe('a deposit arriving after a Solana payout was approved', () => {
  // Stable leg 250 USDC = 250_000_000, approved by the buyer; then 5 more base units arrive before the
  // payout is sent. The payout empties and closes the leg's account, so as signed it can no longer
  // run: it is built again with the 5 returned to the buyer, and the buyer approves again.
  //   fee = floor(250_000_000 / 10_000) = 25_000; seller receives 249_975_000; buyer gets 5 back.
  it('builds the payout again with the excess returned, and settles once it is approved again', async () => {
    const { dealId, deposit } = await openedEscrow(solForUsdc(1_000_000_000n, 250_000_000n));
    const buyer = net.buyer.solana!;
    const seller = net.seller.solana!;
    const before = {
      seller: await sol().tokens('USDC', seller.payoutAddress),
      buyer: await sol().tokens('USDC', buyer.refundAddress),
    };
    await sol().pay('SOL', deposit.asset, 1_000_000_000n);
    await sol().pay('USDC', deposit.stable, 250_000_000n);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
    const first = await approveSolana(net.buyer, dealId, 'stable');
    expect(first.summary.transfers.map((transfer) => transfer.kind)).toEqual(['payout', 'fee']);

    // The extra deposit is counted before the seller's approval lets the settlement go.
    await sol().pay('USDC', deposit.stable, 5n);
    await net.settle(async () => leg(await view(net.buyer, dealId), 'stable').received === '250000005');
    await approveSolana(net.seller, dealId, 'asset');
    await net.settle(async () => leg(await view(net.buyer, dealId), 'stable').signing_payload !== null);
    // The seller's SOL has not gone to the buyer meanwhile: no leg goes until every leg signs, so the
    // buyer cannot take the SOL and leave the stable leg waiting for an approval it never gives.
    const waiting = await view(net.buyer, dealId);
    expect(leg(waiting, 'asset').payout).toMatchObject({ status: 'ready', transaction_hash: null });
    expect(await sol().lamports(deposit.asset)).toBeGreaterThanOrEqual(1_000_000_000n);
    // The deal's history says why the buyer is asked again (each party notified).
    expect(await rebuiltEvents(dealId)).toEqual([
      { leg: 'stable', kind: 'release', reason: 'balance_changed', escrow_id: waiting.escrow_id },
    ]);
    const again = await approveSolana(net.buyer, dealId, 'stable');
    expect(again.data).not.toBe(first.data);
    expect(again.summary.transfers).toEqual([
      { kind: 'payout', to: seller.payoutAddress, amount: '249975000' },
      { kind: 'fee', to: sol().info.feeAddress, amount: '25000' },
      { kind: 'refund', to: buyer.refundAddress, amount: '5' },
    ]);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed', 30);
    expect((await sol().tokens('USDC', seller.payoutAddress)) - before.seller).toBe(249_975_000n);
    expect((await sol().tokens('USDC', buyer.refundAddress)) - before.buyer).toBe(5n);
    await expectBooksBalance(net, dealId);
  });
  it('lets the party a leg pays approve it when it was built again after the other leg had gone', async () => {
    const { dealId, deposit } = await openedEscrow(solForUsdc(1_000_000_000n, 120_000_000n));
    const seller = net.seller.solana!;
    const sellerBefore = await sol().tokens('USDC', seller.payoutAddress);
    await sol().pay('SOL', deposit.asset, 1_000_000_000n);
    await sol().pay('USDC', deposit.stable, 120_000_000n);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
    await approveSolana(net.buyer, dealId, 'stable');
    // As if the asset leg's payout had gone out (its sending came first), and then a deposit landed
    // on the stable leg before its own payout went: built again, it needs an approval again. The
    // buyer, who has the SOL, would not give it; the seller, whom it pays, may.
    const [escrow] = await net.database.db
      .select()
      .from(schema.escrows)
      .where(eq(schema.escrows.dealId, dealId));
    await net.database.db
      .update(schema.escrowPayouts)
      .set({ status: 'confirmed' })
      .where(and(eq(schema.escrowPayouts.escrowId, escrow!.id), eq(schema.escrowPayouts.leg, 'asset')));
    // And the deal disputed in the same instant (the API refuses a dispute once a leg has gone): the
    // leg still owed goes all the same.
    await net.database.db.update(schema.deals).set({ status: 'disputed' }).where(eq(schema.deals.id, dealId));
    await sol().pay('USDC', deposit.stable, 5n);
    await net.settle(async () => leg(await view(net.seller, dealId), 'stable').signing_payload !== null);
    expect(leg(await view(net.buyer, dealId), 'stable').signing_payload).not.toBeNull();
    const approved = await approveSolana(net.seller, dealId, 'stable');
    expect(approved.summary.transfers).toEqual([
      { kind: 'payout', to: seller.payoutAddress, amount: '119988000' },
      { kind: 'fee', to: sol().info.feeAddress, amount: '12000' },
      { kind: 'refund', to: net.buyer.solana!.refundAddress, amount: '5' },
    ]);
    await net.settle(
      async () => leg(await view(net.seller, dealId), 'stable').payout?.status === 'confirmed',
      30,
    );
    expect((await sol().tokens('USDC', seller.payoutAddress)) - sellerBefore).toBe(119_988_000n);
    // Signed before the watcher had seen the 5 units, the rebuilt payout was the same one: staff were
    // alerted once (the next pass built it with them). Cleared for the books checks of later tests.
    await net.database.db.delete(schema.staffAlerts).where(eq(schema.staffAlerts.kind, 'payout_refused'));
  });
});

describe('a Solana payout whose send was answered with an error after the RPC forwarded it', () => {
  it('is sent again as it is, not built anew, and the deal settles once with the books balanced', async () => {
    const { dealId, deposit } = await openedEscrow(solForUsdc(500_000_000n, 80_000_000n));
    await sol().pay('SOL', deposit.asset, 500_000_000n);
    await sol().pay('USDC', deposit.stable, 80_000_000n);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
    await approveSolana(net.buyer, dealId, 'stable');
    // The next send is taken by the RPC, answered with a time-out, and lands a moment later.
    sol().devnet.faults.landAfterMs = 60;
    sol().devnet.faults.sendsAnsweredLate = 1;
    await approveSolana(net.seller, dealId, 'asset');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed', 40);
    expect(sol().devnet.faults.sendsAnsweredLate).toBe(0);
    const done = await view(net.seller, dealId);
    expect(leg(done, 'asset').payout).toMatchObject({ status: 'confirmed' });
    expect(leg(done, 'stable').payout).toMatchObject({ status: 'confirmed' });
    const alerts = await net.database.db.select().from(schema.staffAlerts);
    expect(alerts.filter((alert) => alert.details.escrow_id === done.escrow_id)).toEqual([]);
    await expectBooksBalance(net, dealId);
  });
});

describe('a Solana payout that fails on-chain', () => {
  // A deposit to the stable leg lands between the engine's last check and its payout: the payout's
  // closing of the account fails, the whole transaction with it (nothing moves), and its nonce is
  // used up. Built again with the extra returned to the buyer, it settles.
  it('is built again from what the leg holds, and settles once approved again', async () => {
    const { dealId, deposit } = await openedEscrow(solForUsdc(400_000_000n, 60_000_000n));
    const seller = net.seller.solana!;
    const sellerBefore = await sol().tokens('USDC', seller.payoutAddress);
    await sol().pay('SOL', deposit.asset, 400_000_000n);
    await sol().pay('USDC', deposit.stable, 60_000_000n);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
    await approveSolana(net.buyer, dealId, 'stable');
    const extra = () =>
      sol().devnet.faucet.fundTokenAccounts(sol().devnet.mints.USDC, [
        { tokenAccount: deposit.stable, amount: 3n },
      ]);
    // Before each of the two legs' transactions: the stable leg's fails whichever goes first.
    sol().devnet.faults.beforeNextSends.push(extra, extra);
    await approveSolana(net.seller, dealId, 'asset');
    // The buyer approves each version it is asked to (a second one when the second extra deposit
    // was counted after the first rebuild), until the deal completes.
    await net.settle(async () => {
      if ((await dealStatus(net.database, dealId)) === 'completed') return true;
      if (leg(await view(net.buyer, dealId), 'stable').signing_payload) {
        await approveSolana(net.buyer, dealId, 'stable');
      }
      return false;
    }, 60);
    expect(sol().devnet.faults.beforeNextSends).toEqual([]);
    expect((await rebuiltEvents(dealId)).map((event) => event.reason)).toContain('reverted');
    // 60 USDC less the 0.01% fee (6 000) to the seller; the 6 extra units back to the buyer.
    expect((await sol().tokens('USDC', seller.payoutAddress)) - sellerBefore).toBe(59_994_000n);
    const done = await view(net.buyer, dealId);
    expect(leg(done, 'stable').payout?.transfers).toContainEqual({
      kind: 'refund',
      to: net.buyer.solana!.refundAddress,
      amount: '6',
    });
    await net.database.db.delete(schema.staffAlerts).where(eq(schema.staffAlerts.kind, 'payout_refused'));
    await expectBooksBalance(net, dealId);
  });
});
