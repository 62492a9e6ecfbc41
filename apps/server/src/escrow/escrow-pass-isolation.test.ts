import { schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escrowSteps } from '../testing/escrow-steps.js';
import { setTokenBalance } from '../testing/set-token-balance.js';
import { dealStatus, type EscrowDevnet, startEscrowDevnet } from '../testing/start-escrow-devnet.js';

// One escrow the engine cannot pay out must not stop the pass for every other deal on the platform.
let net: EscrowDevnet;

beforeAll(async () => {
  net = await startEscrowDevnet();
});

afterAll(async () => {
  await net?.close();
});

const { view, leg, approve, fundedEscrow } = escrowSteps(() => net);

// 1 WETH (seller's asset leg) for 3 000 USDC (buyer's stable leg), both paid in full.
const assetAmount = 1_000_000_000_000_000_000n;
const stableAmount = 3_000_000_000n;

function fundedDeal() {
  return fundedEscrow({
    assetSymbol: 'WETH',
    assetAmount,
    stableSymbol: 'USDC',
    stableAmount,
  });
}

describe('an escrow whose payout cannot be built', () => {
  it('is alerted to staff while every other deal settles in the same pass', async () => {
    const broken = await fundedDeal();
    const healthy = await fundedDeal();
    // The broken deal's release payouts are gone and its asset leg now asks more than it holds, as a
    // leg whose deposits no longer cover its payout would (a capped Bitcoin input set, say).
    const [escrow] = await net.database.db
      .select()
      .from(schema.escrows)
      .where(eq(schema.escrows.dealId, broken.dealId));
    await net.database.db.delete(schema.escrowPayouts).where(eq(schema.escrowPayouts.escrowId, escrow!.id));
    await net.database.db
      .update(schema.escrowLegs)
      .set({ requiredAmount: (assetAmount * 2n).toString() })
      .where(and(eq(schema.escrowLegs.escrowId, escrow!.id), eq(schema.escrowLegs.leg, 'asset')));

    // The healthy deal's parties approve; its settlement goes in the very pass that meets the broken one.
    await approve(net.seller, healthy.dealId, 'asset');
    await approve(net.buyer, healthy.dealId, 'stable');
    await net.app.escrow.tick();
    const sending = await view(net.seller, healthy.dealId);
    expect(leg(sending, 'asset').payout?.status).toMatch(/^(submitted|confirmed)$/);
    expect(leg(sending, 'stable').payout?.status).toMatch(/^(submitted|confirmed)$/);
    await net.settle(async () => (await dealStatus(net.database, healthy.dealId)) === 'completed');

    const alerts = await net.database.db
      .select()
      .from(schema.staffAlerts)
      .where(eq(schema.staffAlerts.kind, 'payout_not_buildable'));
    expect(alerts).toEqual([
      expect.objectContaining({
        subject: `${escrow!.id}:settlement`,
        details: expect.objectContaining({ deal_id: broken.dealId, source: 'settlement' }),
      }),
    ]);
    expect(alerts[0]!.message).toMatch(/^A settlement payout of this escrow cannot be built: /);
  });
});

describe('a payout whose sending failed after the node took it', () => {
  it('is followed to its confirmation, not left sending', async () => {
    const { dealId } = await fundedDeal();
    await net.automine(false);
    try {
      await approve(net.seller, dealId, 'asset');
      await approve(net.buyer, dealId, 'stable');
      await net.app.escrow.tick();
      // As if the send of the asset leg's payout had failed after the node took it: stored, not sent.
      const [escrow] = await net.database.db
        .select()
        .from(schema.escrows)
        .where(eq(schema.escrows.dealId, dealId));
      await net.database.db
        .update(schema.escrowPayouts)
        .set({ status: 'submitting' })
        .where(
          and(
            eq(schema.escrowPayouts.escrowId, escrow!.id),
            eq(schema.escrowPayouts.leg, 'asset'),
            eq(schema.escrowPayouts.status, 'submitted'),
          ),
        );
      await net.mine(1);
    } finally {
      await net.automine(true);
    }
    // Sent again, the node refuses it (mined already): it is followed from there and the deal completes.
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');
    const done = await view(net.seller, dealId);
    expect(leg(done, 'asset').payout).toMatchObject({ status: 'confirmed' });
    expect(await net.balance('WETH', net.buyer.payoutAddress)).toBeGreaterThan(0n);
  });
});

describe('a late deposit whose return was refused', () => {
  it('is tried again on later passes, not only when the ledger changes, and its alert resolves', async () => {
    const { dealId, deposit } = await fundedDeal();
    await approve(net.seller, dealId, 'asset');
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');
    // The buyer pays 7 USDC again, late (its wallet is topped up for it); before it is deep enough
    // the token freezes the escrow's balance (as USDC can): the sweep back is refused.
    const buyerUsdc = await net.balance('USDC', net.buyer.wallet);
    await net.pay(net.buyer, 'USDC', deposit.stable, 7_000_000n);
    await net.app.escrow.tick();
    await setTokenBalance(net, 'USDC', deposit.stable, 0n);
    const refused = async () =>
      (await net.database.db.select().from(schema.staffAlerts)).filter(
        (alert) => alert.kind === 'sweep_refused' && alert.resolvedAt === null,
      );
    await net.settle(async () => (await refused()).length > 0);
    // Unfrozen: the next full passes send it back though the leg's ledger did not change.
    await setTokenBalance(net, 'USDC', deposit.stable, 7_000_000n);
    await net.settle(async () => (await net.balance('USDC', deposit.stable)) === 0n);
    // Back at the buyer's refund address in the terms (its wallet).
    expect((await net.balance('USDC', net.buyer.wallet)) - buyerUsdc).toBe(7_000_000n);
    expect(await refused()).toEqual([]);
  });
});
