import { covenantEscrowAbi } from '@covenant/contracts';
import { schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import { createPublicClient, createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escrowSteps } from '../testing/escrow-steps.js';
import { dealStatus, type EscrowDevnet, startEscrowDevnet } from '../testing/start-escrow-devnet.js';
import { storeApproval } from './approve-payout.js';
import { settlementSafetyMarginMs } from './legs-still-locked.js';

let net: EscrowDevnet;

beforeAll(async () => {
  net = await startEscrowDevnet();
});

afterAll(async () => {
  await net?.close();
});

const { view, leg, approve, openedEscrow, fundedEscrow, fundLeg } = escrowSteps(() => net);

// 1.5 WETH (seller's asset leg) for 4 500 USDC (buyer's stable leg), both paid in full.
const assetAmount = 1_500_000_000_000_000_000n;
const stableAmount = 4_500_000_000n;

function fundedDeal() {
  return fundedEscrow({
    assetSymbol: 'WETH',
    assetAmount,
    stableSymbol: 'USDC',
    stableAmount,
    fundingDeadlineHours: 1,
  });
}

/** Moves the chain's clock `seconds` past `refundAfter` (a block mined then), if it is not there yet. */
async function passOnChain(refundAfter: number, seconds: number) {
  const client = createPublicClient({ chain: foundry, transport: http(net.chain.rpcUrl, { retryCount: 0 }) });
  const chainNow = Number((await client.getBlock()).timestamp) * 1000;
  await net.mine(1, Math.max(1, Math.ceil((refundAfter - chainNow) / 1000) + seconds));
}

async function alertKinds(escrowId: string) {
  const alerts = await net.database.db.select().from(schema.staffAlerts);
  return alerts.filter((alert) => alert.subject === escrowId).map((alert) => alert.kind);
}

describe("a settlement near or past an Ethereum leg's on-chain deadline", () => {
  it('pays nothing when a party took their own leg back on-chain and then approved its release', async () => {
    const { dealId, deposit } = await fundedDeal();
    const before = await view(net.seller, dealId);
    await approve(net.seller, dealId, 'asset');
    await net.app.escrow.tick();
    expect(leg(await view(net.seller, dealId), 'asset').payout).toMatchObject({ status: 'ready' });

    // The chain's clock passes the stable leg's deadline (the server's does not): the buyer sends
    // the stable escrow back to themselves, as the contract lets anyone do then.
    const refundAfter = Date.parse(leg(before, 'stable').refund_after ?? '');
    const transport = http(net.chain.rpcUrl, { retryCount: 0 });
    const client = createPublicClient({ chain: foundry, transport });
    await passOnChain(refundAfter, 10);
    const buyerWallet = createWalletClient({
      chain: foundry,
      transport,
      account: privateKeyToAccount(net.buyer.walletKey),
    });
    const refundedUsdc = await net.balance('USDC', net.buyer.wallet);
    const hash = await buyerWallet.writeContract({
      address: getAddress(deposit.stable),
      abi: covenantEscrowAbi,
      functionName: 'refundAfterDeadline',
    });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await net.balance('USDC', net.buyer.wallet)).toBe(refundedUsdc + stableAmount);

    // The ledger has not seen that refund: the buyer can still approve the stable leg's release.
    await approve(net.buyer, dealId, 'stable');
    for (let pass = 0; pass < 4; pass++) {
      await net.app.escrow.tick();
      await net.mine(1);
    }

    // The seller's asset stays in its escrow; the buyer gets none of it.
    expect(await net.balance('WETH', net.buyer.payoutAddress)).toBe(0n);
    expect(await net.balance('WETH', deposit.asset)).toBe(assetAmount);
    const held = await view(net.seller, dealId);
    expect(leg(held, 'asset').payout).toMatchObject({ status: 'ready', transaction_hash: null });
    expect(await alertKinds(held.escrow_id)).toEqual(['leg_settled_elsewhere']);
  });

  it('reminds both parties, then cancels a funded deal that has not settled by its deadline’s margin and refunds both legs', async () => {
    const { dealId, deposit } = await fundedDeal();
    const opened = await view(net.seller, dealId);
    const refundAfter = Date.parse(leg(opened, 'asset').refund_after ?? '');
    // The parties see when that happens.
    expect(opened.settle_by).toBe(new Date(refundAfter - settlementSafetyMarginMs).toISOString());
    // The seller approves its release in time; the buyer never does.
    await approve(net.seller, dealId, 'asset');
    await net.app.escrow.tick();
    const noticesOf = (kind: string) =>
      net.database.db
        .select({
          title: schema.notifications.title,
          body: schema.notifications.body,
          userId: schema.notifications.userId,
        })
        .from(schema.notifications)
        .where(and(eq(schema.notifications.dealId, dealId), eq(schema.notifications.kind, kind)));
    expect(await noticesOf('settlement_window_closing')).toEqual([]);

    // Five hours before it, both parties are told once, with the time.
    const settleBy = refundAfter - settlementSafetyMarginMs;
    await net.clock.advance(settleBy - 5 * 3_600_000 - net.clock.now.getTime());
    await net.app.escrow.tick();
    await net.app.escrow.tick();
    const reminders = await noticesOf('settlement_window_closing');
    expect(reminders.map((notice) => notice.userId).sort()).toEqual([net.buyer.id, net.seller.id].sort());
    const when = `${new Date(settleBy).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    expect(reminders[0]?.body).toContain(`The deal must start to settle by ${when}.`);
    expect(await dealStatus(net.database, dealId)).toBe('escrow_funded');

    // On the server's clock, half the margin before the deadline.
    await net.clock.advance(refundAfter - settlementSafetyMarginMs / 2 - net.clock.now.getTime());
    await net.app.escrow.tick();

    expect(await dealStatus(net.database, dealId)).toBe('cancelled');
    const cancelled = await view(net.buyer, dealId);
    expect(leg(cancelled, 'asset').payout).toMatchObject({ kind: 'refund', status: 'collecting' });
    expect(leg(cancelled, 'stable').payout).toMatchObject({ kind: 'refund', status: 'collecting' });
    // Nothing was held for staff: the deal's own deadline took care of it.
    expect(await alertKinds(cancelled.escrow_id)).toEqual([]);
    const trail = await net.database.db
      .select({ action: schema.dealAuditEntries.action })
      .from(schema.dealAuditEntries)
      .where(eq(schema.dealAuditEntries.dealId, dealId));
    expect(trail.map((entry) => entry.action)).toContain('settlement_window_passed');
    const notices = await noticesOf('settlement_window_passed');
    expect(notices.map((notice) => notice.userId).sort()).toEqual([net.buyer.id, net.seller.id].sort());
    expect(notices[0]?.title).toBe('Settlement window closed');

    // The buyer approves its own refund and has it at once; the seller does not, and once the deadline
    // has passed (both clocks) the engine sends the asset leg back without signatures.
    const buyerUsdc = await net.balance('USDC', net.buyer.wallet);
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => (await net.balance('USDC', net.buyer.wallet)) === buyerUsdc + stableAmount);
    expect(await net.balance('WETH', deposit.asset)).toBe(assetAmount);

    await net.clock.advance(refundAfter + 60_000 - net.clock.now.getTime());
    await passOnChain(refundAfter, 60);
    await net.settle(async () => (await view(net.buyer, dealId)).status === 'refunded');

    // The seller's wallet also gets the earlier test's deal's asset back (cancelled the same way), so
    // the leg's own refund is read from the escrow and the deal's view.
    expect(await net.balance('WETH', deposit.asset)).toBe(0n);
    const refunded = await view(net.seller, dealId);
    expect(leg(refunded, 'asset').payout).toMatchObject({ kind: 'refund', status: 'confirmed' });
    expect(leg(refunded, 'stable').payout).toMatchObject({ kind: 'refund', status: 'confirmed' });
    expect(await net.balance('USDC', net.buyer.wallet)).toBe(buyerUsdc + stableAmount);
    expect(await net.balance('WETH', net.buyer.payoutAddress)).toBe(0n);
    expect(await net.balance('USDC', net.seller.payoutAddress)).toBe(0n);
    expect(await dealStatus(net.database, dealId)).toBe('cancelled');
  });

  it('leaves a deal whose settlement is on its way when the margin comes: it completes, uncancelled and unreminded', async () => {
    const { dealId } = await fundedDeal();
    const opened = await view(net.seller, dealId);
    const refundAfter = Date.parse(leg(opened, 'asset').refund_after ?? '');
    // Both approve; the release payouts are sent and wait in the mempool.
    await net.automine(false);
    try {
      await approve(net.seller, dealId, 'asset');
      await approve(net.buyer, dealId, 'stable');
      await net.app.escrow.tick();
      const sending = await view(net.seller, dealId);
      expect(leg(sending, 'asset').payout).toMatchObject({ kind: 'release', status: 'submitted' });
      expect(leg(sending, 'stable').payout).toMatchObject({ kind: 'release', status: 'submitted' });
      // Its legs are on their way: a dispute could undo neither, and would hold back the one owed.
      const dispute = await net.call('POST', `/api/v1/deals/${dealId}/disputes`, net.buyer.token, {
        reason: 'The seller has not answered my messages since the payouts went out.',
      });
      expect(dispute.statusCode, dispute.body).toBe(409);
      expect(dispute.json().error).toMatchObject({
        code: 'CONFLICT',
        details: { reason: 'settlement_under_way' },
      });

      // The server's clock passes the reminder time and enters the margin before they are mined.
      await net.clock.advance(refundAfter - settlementSafetyMarginMs / 2 - net.clock.now.getTime());
      await net.app.escrow.tick();
      await net.app.escrow.tick();
      expect(await dealStatus(net.database, dealId)).toBe('escrow_funded');
    } finally {
      await net.automine(true);
    }
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');
    const trail = await net.database.db
      .select({ action: schema.dealAuditEntries.action })
      .from(schema.dealAuditEntries)
      .where(eq(schema.dealAuditEntries.dealId, dealId));
    const actions = trail.map((entry) => entry.action);
    expect(actions).not.toContain('settlement_window_passed');
    expect(actions).not.toContain('settlement_window_closing');
    const done = await view(net.seller, dealId);
    expect(leg(done, 'asset').payout).toMatchObject({ kind: 'release', status: 'confirmed' });
    expect(leg(done, 'stable').payout).toMatchObject({ kind: 'release', status: 'confirmed' });
  });

  it('records a refund the depositor took itself after the deadline as the leg’s refund', async () => {
    const { dealId, deposit } = await fundedDeal();
    const opened = await view(net.seller, dealId);
    const refundAfter = Date.parse(leg(opened, 'asset').refund_after ?? '');
    await net.clock.advance(refundAfter - settlementSafetyMarginMs / 2 - net.clock.now.getTime());
    await net.app.escrow.tick();
    expect(await dealStatus(net.database, dealId)).toBe('cancelled');
    // The platform is slow (or down): past the deadline, the seller takes its WETH back itself.
    await passOnChain(refundAfter, 60);
    const transport = http(net.chain.rpcUrl, { retryCount: 0 });
    const client = createPublicClient({ chain: foundry, transport });
    const sellerWeth = await net.balance('WETH', net.seller.wallet);
    const sellerWallet = createWalletClient({
      chain: foundry,
      transport,
      account: privateKeyToAccount(net.seller.walletKey),
    });
    const own = await sellerWallet.writeContract({
      address: getAddress(deposit.asset),
      abi: covenantEscrowAbi,
      functionName: 'refundAfterDeadline',
    });
    expect((await client.waitForTransactionReceipt({ hash: own })).status).toBe('success');
    await net.mine(2);

    // The engine's own refund is refused (already settled): the seller's transaction is the refund.
    await net.clock.advance(refundAfter + 60_000 - net.clock.now.getTime());
    await net.settle(async () => (await view(net.buyer, dealId)).status === 'refunded');
    const refunded = await view(net.seller, dealId);
    expect(leg(refunded, 'asset').payout).toMatchObject({
      kind: 'refund',
      status: 'confirmed',
      transaction_hash: own,
    });
    expect(leg(refunded, 'stable').payout).toMatchObject({ kind: 'refund', status: 'confirmed' });
    expect((await net.balance('WETH', net.seller.wallet)) - sellerWeth).toBe(assetAmount);
    expect(await alertKinds(refunded.escrow_id)).toEqual([]);
    const alerts = await net.database.db.select().from(schema.staffAlerts);
    expect(alerts.filter((alert) => alert.details.escrow_id === refunded.escrow_id)).toEqual([]);
  });

  it('sends again a refund after the deadline whose stored transaction the node refused and never saw', async () => {
    const { dealId, deposit } = await fundedDeal();
    const opened = await view(net.seller, dealId);
    const refundAfter = Date.parse(leg(opened, 'asset').refund_after ?? '');
    // Nobody approves anything: the deal is cancelled at the margin, and past the deadline (both
    // clocks) the engine sends each leg back without signatures.
    await net.clock.advance(refundAfter - settlementSafetyMarginMs / 2 - net.clock.now.getTime());
    await net.app.escrow.tick();
    expect(await dealStatus(net.database, dealId)).toBe('cancelled');
    await net.clock.advance(refundAfter + 60_000 - net.clock.now.getTime());
    await passOnChain(refundAfter, 60);
    // As if the deadline step had stored the asset leg's refund and the node had refused it and never
    // seen it (its nonce taken meanwhile): a transaction that can never be mined.
    const [escrow] = await net.database.db
      .select()
      .from(schema.escrows)
      .where(eq(schema.escrows.dealId, dealId));
    const assetRefund = and(
      eq(schema.escrowPayouts.escrowId, escrow!.id),
      eq(schema.escrowPayouts.leg, 'asset'),
      eq(schema.escrowPayouts.kind, 'refund'),
    );
    await net.database.db
      .update(schema.escrowPayouts)
      .set({ status: 'submitting', rawTransaction: '0x02deadbeef', txRef: `0x${'ef'.repeat(32)}` })
      .where(assetRefund);
    const sellerWeth = await net.balance('WETH', net.seller.wallet);
    await net.settle(async () => (await view(net.seller, dealId)).status === 'refunded');
    expect(await net.balance('WETH', deposit.asset)).toBe(0n);
    expect((await net.balance('WETH', net.seller.wallet)) - sellerWeth).toBe(assetAmount);
    const [refund] = await net.database.db.select().from(schema.escrowPayouts).where(assetRefund);
    expect(refund).toMatchObject({ kind: 'refund', status: 'confirmed' });
    expect(refund!.txRef).not.toBe(`0x${'ef'.repeat(32)}`);
    // Staff saw the refusal while it lasted; the confirmed refund resolved it.
    const refusals = await net.database.db
      .select()
      .from(schema.staffAlerts)
      .where(
        and(
          eq(schema.staffAlerts.kind, 'payout_broadcast_refused'),
          eq(schema.staffAlerts.subject, refund!.id),
        ),
      );
    expect(refusals).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({ kind: 'refund' }),
        resolvedAt: expect.any(Date),
      }),
    ]);
  });
});

describe('an approval on a deal that is not settling', () => {
  it('says the deal is in dispute, not that the other leg is unfunded', async () => {
    const { dealId, deposit } = await openedEscrow({
      assetSymbol: 'WETH',
      assetAmount,
      stableSymbol: 'USDC',
      stableAmount,
    });
    await fundLeg(dealId, 'asset', {
      from: net.seller,
      symbol: 'WETH',
      to: deposit.asset,
      amount: assetAmount,
    });
    const opened = await net.call('POST', `/api/v1/deals/${dealId}/disputes`, net.seller.token, {
      reason: 'The buyer has not sent the stablecoin leg as agreed.',
    });
    expect(opened.statusCode, opened.body).toBe(201);

    const refused = await net.call('POST', '/api/v1/escrow/release', net.seller.token, {
      deal_id: dealId,
      leg: 'asset',
      signature: `0x${'11'.repeat(65)}`,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'DEAL_NOT_ACTIVE',
      message: 'The deal is in dispute: the payouts follow the mediator’s decision',
      details: { leg: 'asset', status: 'disputed' },
    });
  });

  it('is not stored over a payout built again since it was checked, and leaves that payout collecting', async () => {
    const { dealId } = await fundedDeal();
    const [escrow] = await net.database.db
      .select()
      .from(schema.escrows)
      .where(eq(schema.escrows.dealId, dealId));
    const [payout] = await net.database.db
      .select()
      .from(schema.escrowPayouts)
      .where(and(eq(schema.escrowPayouts.escrowId, escrow!.id), eq(schema.escrowPayouts.leg, 'asset')));
    expect(payout).toMatchObject({ kind: 'release', status: 'collecting' });
    const deps = { db: net.database.db, now: () => net.clock.now };
    const approval = {
      party: 'seller' as const,
      signerAddress: net.seller.escrowKey.address,
      signature: '0x01',
    };
    // Checked against the payout as it was; the engine built it again (a new payoutRef) before it was stored.
    const stale = { id: payout!.id, payoutRef: `${payout!.payoutRef}-before` };
    await expect(storeApproval(deps, stale, approval, { ready: true })).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { reason: 'payout_changed' },
    });
    const signatures = await net.database.db
      .select()
      .from(schema.escrowPayoutSignatures)
      .where(eq(schema.escrowPayoutSignatures.payoutId, payout!.id));
    expect(signatures).toEqual([]);
    const [after] = await net.database.db
      .select()
      .from(schema.escrowPayouts)
      .where(eq(schema.escrowPayouts.id, payout!.id));
    expect(after?.status).toBe('collecting');
    // As checked: stored, and ready in the same transaction.
    await storeApproval(deps, payout!, approval, { ready: true });
    const [ready] = await net.database.db
      .select()
      .from(schema.escrowPayouts)
      .where(eq(schema.escrowPayouts.id, payout!.id));
    expect(ready?.status).toBe('ready');
  });
});

describe('the funding deadline approaching', () => {
  it('tells both parties once, six hours before, which leg is not funded yet', async () => {
    const { dealId, deposit } = await openedEscrow({
      assetSymbol: 'WETH',
      assetAmount,
      stableSymbol: 'USDC',
      stableAmount,
      fundingDeadlineHours: 24,
    });
    await fundLeg(dealId, 'asset', {
      from: net.seller,
      symbol: 'WETH',
      to: deposit.asset,
      amount: assetAmount,
    });
    const reminders = () =>
      net.database.db
        .select({ body: schema.notifications.body, userId: schema.notifications.userId })
        .from(schema.notifications)
        .where(
          and(
            eq(schema.notifications.dealId, dealId),
            eq(schema.notifications.kind, 'funding_deadline_closing'),
          ),
        );
    expect(await reminders()).toEqual([]);

    const deadline = Date.parse(leg(await view(net.buyer, dealId), 'stable').deadline);
    await net.clock.advance(deadline - 5 * 3_600_000 - net.clock.now.getTime());
    await net.app.escrow.tick();
    await net.app.escrow.tick();
    const sent = await reminders();
    expect(sent.map((notice) => notice.userId).sort()).toEqual([net.buyer.id, net.seller.id].sort());
    const when = `${new Date(deadline).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    expect(sent[0]?.body).toBe(
      `The escrow must be funded by ${when}. Not funded yet: the stable leg (the buyer’s deposit). If it is not funded in time, the deal is cancelled and any deposit goes back to its refund address.`,
    );
  });

  it('reminds of a short funding window at its midpoint, not as the escrow opens', async () => {
    const { dealId } = await openedEscrow({
      assetSymbol: 'WETH',
      assetAmount,
      stableSymbol: 'USDC',
      stableAmount,
      fundingDeadlineHours: 2,
    });
    const reminded = async () =>
      (
        await net.database.db
          .select()
          .from(schema.dealAuditEntries)
          .where(
            and(
              eq(schema.dealAuditEntries.dealId, dealId),
              eq(schema.dealAuditEntries.action, 'funding_deadline_closing'),
            ),
          )
      ).length;
    await net.app.escrow.tick();
    expect(await reminded()).toBe(0);
    const deadline = Date.parse(leg(await view(net.buyer, dealId), 'stable').deadline);
    const [escrow] = await net.database.db
      .select()
      .from(schema.escrows)
      .where(eq(schema.escrows.dealId, dealId));
    const midpoint = (escrow!.createdAt.getTime() + deadline) / 2;
    await net.clock.advance(midpoint - 60_000 - net.clock.now.getTime());
    await net.app.escrow.tick();
    expect(await reminded()).toBe(0);
    await net.clock.advance(2 * 60_000);
    await net.app.escrow.tick();
    expect(await reminded()).toBe(1);
  });
});

describe('opening an escrow while the deal changes', () => {
  const changes = {
    'the parties agree a second version, for a smaller stable amount': async (dealId: string) => {
      await net.database.db
        .update(schema.deals)
        .set({
          stableAmount: (stableAmount / 2n).toString(),
          acceptedTermsVersion: 2,
          termsHash: 'second',
          termsAgreedAt: new Date(net.clock.now.getTime() + 1_000),
        })
        .where(eq(schema.deals.id, dealId));
      return {
        message: 'The terms changed while the escrow was being opened; open it again',
        stable: stableAmount / 2n,
      };
    },
    'the seller replaces the escrow key': async () => {
      await net.database.db
        .update(schema.walletAddresses)
        .set({ address: getAddress(privateKeyToAccount(`0x${'5'.repeat(64)}`).address) })
        .where(
          and(eq(schema.walletAddresses.userId, net.seller.id), eq(schema.walletAddresses.chain, 'ETH')),
        );
      return {
        message: 'The terms changed while the escrow was being opened; open it again',
        stable: stableAmount,
      };
    },
  };

  it.each(Object.entries(changes))(
    'refuses the escrow it began with when %s, and the next call opens the deal as it stands',
    async (_, change) => {
      const dealId = await net.agreedDeal({
        assetSymbol: 'WETH',
        assetAmount,
        stableSymbol: 'USDC',
        stableAmount,
      });
      const deploymentsSent = async () =>
        (
          await net.database.db
            .select({ kind: schema.escrowRelayerTransactions.kind })
            .from(schema.escrowRelayerTransactions)
        ).filter((row) => row.kind === 'deployment').length;
      const before = await deploymentsSent();
      // The deployments wait in the mempool: the call waits for them (ESCROW_DEPLOYMENT_WAIT_SECONDS).
      await net.automine(false);
      const opening = net.call('POST', '/api/v1/escrow/create', net.buyer.token, { deal_id: dealId });
      let expected: Awaited<ReturnType<typeof change>>;
      try {
        await expect.poll(deploymentsSent, { timeout: 20_000, interval: 50 }).toBe(before + 2);
        expected = await change(dealId);
      } finally {
        await net.automine(true);
        await net.mine(1);
      }
      const refused = await opening;
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ error: { code: 'CONFLICT', message: expected.message } });
      expect(
        await net.database.db.select().from(schema.escrows).where(eq(schema.escrows.dealId, dealId)),
      ).toEqual([]);

      const opened = await net.call('POST', '/api/v1/escrow/create', net.buyer.token, { deal_id: dealId });
      expect(opened.statusCode, opened.body).toBe(201);
      const legs = (opened.json() as { legs: { leg: string; amount: string }[] }).legs;
      expect(legs.find((entry) => entry.leg === 'stable')?.amount).toBe(expected.stable.toString());
    },
  );
});

describe('opening an escrow for a party no longer allowed the trade', () => {
  it('refuses while the seller’s KYC is withdrawn, deploying nothing, and opens once it is back', async () => {
    const dealId = await net.agreedDeal({
      assetSymbol: 'WETH',
      assetAmount,
      stableSymbol: 'USDC',
      stableAmount,
    });
    const deployments = async () =>
      (await net.database.db.select().from(schema.escrowRelayerTransactions)).filter(
        (row) => row.kind === 'deployment',
      ).length;
    const before = await deployments();
    const setSellerKyc = (kycCompleted: boolean) =>
      net.database.db
        .update(schema.profiles)
        .set({ kycCompleted })
        .where(eq(schema.profiles.id, net.seller.id));
    await setSellerKyc(false);
    try {
      const refused = await net.call('POST', '/api/v1/escrow/create', net.buyer.token, { deal_id: dealId });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().error).toMatchObject({
        code: 'KYC_REQUIRED',
        message: 'Your counterparty has not completed KYC verification.',
      });
      expect(await deployments()).toBe(before);
    } finally {
      await setSellerKyc(true);
    }
    const opened = await net.call('POST', '/api/v1/escrow/create', net.buyer.token, { deal_id: dealId });
    expect(opened.statusCode, opened.body).toBe(201);
  });
});
