import { randomUUID } from 'node:crypto';
import { schema } from '@covenant/db';
import { fundFromDevnetWallet } from '@covenant/devnets';
import type { EscrowStatusView } from '@covenant/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader } from '../testing/create-test-trader.js';
import { setTokenBalance } from '../testing/set-token-balance.js';
import { type EscrowDevnet, startEscrowDevnet } from '../testing/start-escrow-devnet.js';

// A token an escrow does not hold for its deal (ADR 036): never counted, sent back to the party who
// sent it. Deposits count at 2 confirmations, as in the watcher's tests.
let net: EscrowDevnet;

beforeAll(async () => {
  net = await startEscrowDevnet({ confirmations: 2 });
});

afterAll(async () => {
  await net?.close();
});

/** The alerts of one kind (the wrong-token deposit's by default) about a deal's escrow, open or not. */
async function alertsOf(dealId: string, kind = 'wrong_token_deposit') {
  const [escrow] = await net.database.db
    .select()
    .from(schema.escrows)
    .where(eq(schema.escrows.dealId, dealId));
  const alerts = await net.database.db
    .select()
    .from(schema.staffAlerts)
    .where(eq(schema.staffAlerts.kind, kind));
  return alerts.filter((alert) => alert.details.escrow_id === escrow?.id);
}

/** The open ones. */
async function openAlertsOf(dealId: string, kind: string) {
  return (await alertsOf(dealId, kind)).filter((alert) => alert.resolvedAt === null);
}

/** An escrow of a deal of 1 WETH for 3,000 USDC; its asset leg's (the seller's) deposit address. */
async function wethForUsdcEscrow() {
  const dealId = await net.agreedDeal({
    assetSymbol: 'WETH',
    assetAmount: 1_000_000_000_000_000_000n,
    stableSymbol: 'USDC',
    stableAmount: 3_000_000_000n,
  });
  const created = await net.call('POST', '/api/v1/escrow/create', net.buyer.token, { deal_id: dealId });
  return { dealId, deposit: created.json().legs[0].deposit_address as string };
}

/** A payment from a wallet neither party gave the deal (an exchange's, say): the devnet's own. */
function fromSharedWallet(symbol: string, to: string, amount: bigint) {
  return fundFromDevnetWallet({
    rpcUrl: net.chain.rpcUrl,
    token: net.token(symbol)!,
    to: to as Address,
    amount,
  });
}

/** A deal's audit entries of one action. */
function eventsOf(dealId: string, action: string) {
  return net.database.db
    .select()
    .from(schema.dealAuditEntries)
    .where(and(eq(schema.dealAuditEntries.dealId, dealId), eq(schema.dealAuditEntries.action, action)));
}

describe('a deposit of another token than the leg’s', () => {
  it('does not count another token paid to a leg, alerts staff, and sends it back to the depositor who sent it', async () => {
    const { dealId, deposit } = await wethForUsdcEscrow();
    const before = await net.balance('USDC', net.seller.wallet);
    // The seller pays 123.456789 USDC into the WETH leg's escrow by mistake.
    await net.pay(net.seller, 'USDC', deposit, 123_456_789n);
    // Returned once deep enough; its alert resolves once the return is mined.
    await net.settle(async () => (await openAlertsOf(dealId, 'wrong_token_deposit')).length === 0);
    expect(await net.balance('USDC', deposit)).toBe(0n);
    expect((await net.balance('USDC', net.seller.wallet)) - before).toBe(123_456_789n);
    const view: EscrowStatusView = (
      await net.call('GET', `/api/v1/deals/${dealId}/escrow`, net.seller.token)
    ).json();
    expect(view.legs[0]).toMatchObject({ state: 'awaiting_deposit', received: '0', pending: '0' });
    const alerts = await alertsOf(dealId);
    expect(alerts).toEqual([
      expect.objectContaining({
        kind: 'wrong_token_deposit',
        details: expect.objectContaining({ leg: 'asset', amount: '123456789', sender: 'seller' }),
        // Resolved by the engine once the return was mined: nothing is left for staff to do.
        resolvedAt: expect.any(Date),
        resolvedBy: null,
      }),
    ]);
    expect(await eventsOf(dealId, 'foreign_deposit_returned')).toEqual([
      expect.objectContaining({
        actorId: null,
        payload: expect.objectContaining({
          leg: 'asset',
          symbol: 'USDC',
          amount: '123456789',
          to: 'seller',
          to_address: net.seller.wallet,
          decided_by: 'sender_address',
        }),
      }),
    ]);
  });

  it('sends a token the buyer paid to the seller’s escrow back to the buyer, not to the depositor', async () => {
    const { dealId, deposit } = await wethForUsdcEscrow();
    const sellerBefore = await net.balance('USDC', net.seller.wallet);
    const buyerBefore = await net.balance('USDC', net.buyer.payoutAddress);
    // The buyer pays its 3,000 USDC to the WETH leg (the seller's) instead of the USDC leg.
    await net.pay(net.buyer, 'USDC', deposit, 3_000_000_000n);
    await net.settle(async () => (await net.balance('USDC', deposit)) === 0n);
    // Back to the buyer at its address in the WETH leg's terms (where it is paid the WETH).
    expect((await net.balance('USDC', net.buyer.payoutAddress)) - buyerBefore).toBe(3_000_000_000n);
    expect(await net.balance('USDC', net.seller.wallet)).toBe(sellerBefore);
    expect(await eventsOf(dealId, 'foreign_deposit_returned')).toEqual([
      expect.objectContaining({
        payload: expect.objectContaining({ to: 'buyer', to_address: net.buyer.payoutAddress }),
      }),
    ]);
    const notices = await net.database.db
      .select()
      .from(schema.notifications)
      .where(
        and(
          eq(schema.notifications.dealId, dealId),
          eq(schema.notifications.title, 'Wrong-token deposit returned'),
        ),
      );
    expect(notices.map((notice) => notice.userId).sort()).toEqual([net.buyer.id, net.seller.id].sort());
    expect(notices[0]?.body).toContain('A deposit of 3000 USDC reached the asset leg’s escrow');
  });

  it('holds a token from an address neither party gave the deal until compliance returns it to the party who sent it', async () => {
    const { dealId, deposit } = await wethForUsdcEscrow();
    // From an exchange's shared wallet, say. The seller's own deposit came from it too (withdrawn from
    // the same exchange): that makes it no address of the seller's.
    await fromSharedWallet('WETH', deposit, 1_000n);
    await fromSharedWallet('USDC', deposit, 5_000_000n);
    await net.settle(async () => (await alertsOf(dealId)).length > 0);
    for (let pass = 0; pass < 3; pass++) {
      await net.mine(1);
      await net.app.escrow.tick();
    }
    // Nobody can say whose it is: it stays, staff are alerted, both parties are told.
    expect(await net.balance('USDC', deposit)).toBe(5_000_000n);
    const [alert] = await alertsOf(dealId);
    expect(alert).toMatchObject({
      kind: 'wrong_token_deposit',
      details: { sender: null, amount: '5000000' },
    });
    expect(alert?.message).toContain('an address of neither party');
    expect(await eventsOf(dealId, 'foreign_deposit_held')).toHaveLength(1);
    expect(await eventsOf(dealId, 'foreign_deposit_returned')).toEqual([]);

    const url = `/api/v1/staff/alerts/${alert!.id}/return-foreign-deposit`;
    const mediator = await createTestTrader(net.app, { roles: ['mediator'] });
    const compliance = await createTestTrader(net.app, { roles: ['compliance'] });
    // Neither a party nor a mediator may send it anywhere.
    expect((await net.call('POST', url, net.buyer.token, { party: 'buyer' })).statusCode).toBe(403);
    expect((await net.call('POST', url, mediator.token, { party: 'buyer' })).statusCode).toBe(403);
    expect((await net.call('POST', url, compliance.token, { party: 'nobody' })).statusCode).toBe(400);
    expect((await net.call('POST', url, compliance.token, {})).statusCode).toBe(400);

    const before = await net.balance('USDC', net.buyer.payoutAddress);
    const returned = await net.call('POST', url, compliance.token, { party: 'buyer' });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(returned.json()).toMatchObject({
      to: net.buyer.payoutAddress,
      alert: { resolved_at: expect.any(String), resolved_by: compliance.email },
    });
    await net.settle(async () => (await net.balance('USDC', deposit)) === 0n);
    expect((await net.balance('USDC', net.buyer.payoutAddress)) - before).toBe(5_000_000n);
    expect(await eventsOf(dealId, 'foreign_deposit_returned')).toEqual([
      expect.objectContaining({
        actorId: compliance.id,
        payload: expect.objectContaining({ to: 'buyer', decided_by: 'staff', amount: '5000000' }),
      }),
    ]);
    // Resolved: not again.
    const again = await net.call('POST', url, compliance.token, { party: 'seller' });
    expect(again.statusCode).toBe(404);
    // The watcher reading those blocks again (as after a reorg) finds the deposit returned: no new
    // alert, no second event.
    await net.database.db
      .update(schema.chainScanCursors)
      .set({ scannedHeight: 0n, scannedBlockRef: null })
      .where(eq(schema.chainScanCursors.chain, 'ETH'));
    await net.app.escrow.tick();
    expect(await alertsOf(dealId)).toHaveLength(1);
    expect(await eventsOf(dealId, 'foreign_deposit_held')).toHaveLength(1);
    expect(await eventsOf(dealId, 'foreign_deposit_returned')).toHaveLength(1);
  });

  it('sends again a return the watcher decided on but could not send', async () => {
    const { dealId, deposit } = await wethForUsdcEscrow();
    await fromSharedWallet('USDC', deposit, 7_000_000n);
    await net.settle(async () => (await alertsOf(dealId)).length > 0);
    // As if the watcher had named the buyer and the node had not answered while the return was signed:
    // an alert naming the sender, and no return stored.
    const [alert] = await alertsOf(dealId);
    await net.database.db
      .update(schema.staffAlerts)
      .set({ details: { ...alert!.details, sender: 'buyer' } })
      .where(eq(schema.staffAlerts.id, alert!.id));
    const before = await net.balance('USDC', net.buyer.payoutAddress);
    await net.settle(async () => (await net.balance('USDC', deposit)) === 0n);
    expect((await net.balance('USDC', net.buyer.payoutAddress)) - before).toBe(7_000_000n);
    expect(await eventsOf(dealId, 'foreign_deposit_returned')).toEqual([
      expect.objectContaining({
        payload: expect.objectContaining({ to: 'buyer', decided_by: 'sender_address' }),
      }),
    ]);
    // Sent once: further passes leave it.
    await net.app.escrow.tick();
    const returns = await net.database.db
      .select()
      .from(schema.escrowRelayerTransactions)
      .where(eq(schema.escrowRelayerTransactions.subject, alert!.subject));
    expect(returns).toHaveLength(1);
  });

  it('refuses the staff return on an alert that is not a held deposit', async () => {
    const admin = await createTestTrader(net.app, { roles: ['admin'] });
    const [other] = await net.database.db
      .insert(schema.staffAlerts)
      .values({
        kind: 'escrow_reconciliation',
        subject: randomUUID(),
        message: 'books do not balance',
        details: { escrow_id: randomUUID(), leg: 'stable' },
        createdAt: new Date(),
      })
      .returning();
    const [returnedAlready] = await net.database.db
      .insert(schema.staffAlerts)
      .values({
        kind: 'wrong_token_deposit',
        subject: randomUUID(),
        message: 'returned to the seller',
        details: {
          escrow_id: randomUUID(),
          leg: 'asset',
          token: net.token('USDC'),
          amount: '1',
          transaction_hash: `0x${'ab'.repeat(32)}`,
          log_index: 0,
          from: net.seller.wallet,
          sender: 'seller',
        },
        createdAt: new Date(),
      })
      .returning();
    for (const alert of [other!, returnedAlready!]) {
      const answer = await net.call(
        'POST',
        `/api/v1/staff/alerts/${alert.id}/return-foreign-deposit`,
        admin.token,
        {
          party: 'seller',
        },
      );
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json().error.code).toBe('CONFLICT');
    }
    const unknown = await net.call(
      'POST',
      `/api/v1/staff/alerts/${randomUUID()}/return-foreign-deposit`,
      admin.token,
      {
        party: 'seller',
      },
    );
    expect(unknown.statusCode).toBe(404);
    await net.database.db
      .delete(schema.staffAlerts)
      .where(inArray(schema.staffAlerts.id, [other!.id, returnedAlready!.id]));
  });
  it('sends again, from its failure alert, a staff return the chain refused or that reverted', async () => {
    const { dealId, deposit } = await wethForUsdcEscrow();
    await fromSharedWallet('USDC', deposit, 4_000_000n);
    await net.settle(async () => (await alertsOf(dealId)).length > 0);
    const [held] = await alertsOf(dealId);
    const compliance = await createTestTrader(net.app, { roles: ['compliance'] });
    const returnFrom = (alertId: string) =>
      net.call('POST', `/api/v1/staff/alerts/${alertId}/return-foreign-deposit`, compliance.token, {
        party: 'buyer',
      });

    // Seen in its block, not yet as deep as a deposit must be to count: not yet.
    const early = await returnFrom(held!.id);
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().error.details).toEqual({ reason: 'deposit_not_confirmed' });
    await net.mine(1);

    // The token holds the escrow's balance frozen at 0 (as a blacklisting token can): the node refuses
    // to build the return; nothing is sent, staff read why, the alert stays open.
    await setTokenBalance(net, 'USDC', deposit, 0n);
    const refused = await returnFrom(held!.id);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.message).toMatch(
      /^The chain’s node refused this return, so nothing was sent: ./,
    );
    expect(await openAlertsOf(dealId, 'wrong_token_deposit')).toHaveLength(1);
    const relayed = () =>
      net.database.db
        .select()
        .from(schema.escrowRelayerTransactions)
        .where(eq(schema.escrowRelayerTransactions.subject, held!.subject));
    expect(await relayed()).toEqual([]);

    // Built and sent, then the balance is frozen before it is mined: it reverts on-chain.
    await setTokenBalance(net, 'USDC', deposit, 4_000_000n);
    await net.automine(false);
    try {
      const sent = await returnFrom(held!.id);
      expect(sent.statusCode, sent.body).toBe(200);
      await setTokenBalance(net, 'USDC', deposit, 0n);
      await net.settle(async () => (await openAlertsOf(dealId, 'foreign_asset_return_failed')).length > 0);
    } finally {
      await net.automine(true);
    }
    const [failed] = await openAlertsOf(dealId, 'foreign_asset_return_failed');
    expect(failed).toMatchObject({
      subject: held!.subject,
      details: { sender: null, amount: '4000000', error: 'reverted on-chain' },
    });
    expect(failed!.message).toContain('reverted on-chain; the deposit is still in the escrow');
    expect(await relayed()).toEqual([
      expect.objectContaining({ status: 'failed', error: 'reverted on-chain' }),
    ]);
    // Both parties, told it was on its way, are told it did not arrive.
    expect(await eventsOf(dealId, 'foreign_deposit_return_failed')).toEqual([
      expect.objectContaining({ payload: expect.objectContaining({ amount: '4000000', symbol: 'USDC' }) }),
    ]);

    // The engine does not send a reverted return again by itself.
    await setTokenBalance(net, 'USDC', deposit, 4_000_000n);
    for (let pass = 0; pass < 2; pass++) {
      await net.mine(1);
      await net.app.escrow.tick();
    }
    expect(await relayed()).toHaveLength(1);
    expect(await net.balance('USDC', deposit)).toBe(4_000_000n);

    // Staff send it again from the failure alert: it arrives, every alert of the deposit is resolved.
    const before = await net.balance('USDC', net.buyer.payoutAddress);
    const again = await returnFrom(failed!.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({
      to: net.buyer.payoutAddress,
      alert: { resolved_at: expect.any(String) },
    });
    await net.settle(async () => (await net.balance('USDC', deposit)) === 0n);
    expect((await net.balance('USDC', net.buyer.payoutAddress)) - before).toBe(4_000_000n);
    expect(await openAlertsOf(dealId, 'foreign_asset_return_failed')).toEqual([]);
    expect(await openAlertsOf(dealId, 'wrong_token_deposit')).toEqual([]);
    expect(await eventsOf(dealId, 'foreign_deposit_returned')).toHaveLength(2);
    // Done: the alert is closed, and the contract would refuse a second return of the same arrival.
    expect((await returnFrom(failed!.id)).statusCode).toBe(404);
  });

  it('returns a wrong token from a party once it is deep; one that reverted goes back to that party only, one never mined the engine sends again', async () => {
    const { dealId, deposit } = await wethForUsdcEscrow();
    const relayed = (subject: string) =>
      net.database.db
        .select()
        .from(schema.escrowRelayerTransactions)
        .where(eq(schema.escrowRelayerTransactions.subject, subject));
    // The buyer pays 6 USDC into the seller's WETH escrow by mistake. Seen at one confirmation of the
    // two a deposit needs: alerted, nothing sent yet.
    await net.pay(net.buyer, 'USDC', deposit, 6_000_000n);
    await net.app.escrow.tick();
    const [alert] = await alertsOf(dealId);
    expect(alert).toMatchObject({ details: { sender: 'buyer', block_ref: expect.any(String) } });
    expect(await relayed(alert!.subject)).toEqual([]);

    // Deep enough: the return is sent; the escrow's balance is frozen before it is mined, so it reverts.
    await net.automine(false);
    try {
      await net.mine(1);
      await net.app.escrow.tick();
      expect(await relayed(alert!.subject)).toEqual([expect.objectContaining({ status: 'submitted' })]);
      await setTokenBalance(net, 'USDC', deposit, 0n);
      await net.settle(async () => (await openAlertsOf(dealId, 'foreign_asset_return_failed')).length > 0);
    } finally {
      await net.automine(true);
    }
    const [failed] = await openAlertsOf(dealId, 'foreign_asset_return_failed');
    expect(failed).toMatchObject({ details: { sender: 'buyer', error: 'reverted on-chain' } });
    expect(await eventsOf(dealId, 'foreign_deposit_return_failed')).toHaveLength(1);

    // Not sent again by itself: it would revert the same way.
    await setTokenBalance(net, 'USDC', deposit, 6_000_000n);
    for (let pass = 0; pass < 2; pass++) {
      await net.mine(1);
      await net.app.escrow.tick();
    }
    expect(await relayed(alert!.subject)).toHaveLength(1);
    // Staff may send it again, but only to the buyer, whose address sent it.
    const admin = await createTestTrader(net.app, { roles: ['admin'] });
    const toSeller = await net.call(
      'POST',
      `/api/v1/staff/alerts/${failed!.id}/return-foreign-deposit`,
      admin.token,
      { party: 'seller' },
    );
    expect(toSeller.statusCode, toSeller.body).toBe(409);
    expect(toSeller.json().error.message).toBe(
      "This deposit came from the buyer's address: it can only be returned to the buyer",
    );

    // Had it never been mined instead (refused by the node and never seen by it), the next pass
    // sends it again by itself; mined, every alert of the deposit resolves.
    await net.database.db
      .update(schema.escrowRelayerTransactions)
      .set({ error: 'refused by the node and never sent' })
      .where(eq(schema.escrowRelayerTransactions.subject, alert!.subject));
    const before = await net.balance('USDC', net.buyer.payoutAddress);
    await net.settle(
      async () =>
        (await openAlertsOf(dealId, 'wrong_token_deposit')).length === 0 &&
        (await openAlertsOf(dealId, 'foreign_asset_return_failed')).length === 0,
    );
    expect(await net.balance('USDC', deposit)).toBe(0n);
    expect((await net.balance('USDC', net.buyer.payoutAddress)) - before).toBe(6_000_000n);
    expect(await relayed(alert!.subject)).toHaveLength(2);
  });
  it('sends nothing back for a wrong-token deposit a reorg dropped before it was deep enough', async () => {
    const { dealId, deposit } = await wethForUsdcEscrow();
    const before = await net.snapshot();
    await net.pay(net.buyer, 'USDC', deposit, 2_000_000n);
    await net.app.escrow.tick();
    const [ghost] = await alertsOf(dealId);
    expect(ghost).toMatchObject({ details: { sender: 'buyer' } });
    // The block is reorged away, and the buyer's payment with it.
    await net.revert(before);
    await net.mine(3);
    for (let pass = 0; pass < 3; pass++) {
      await net.app.escrow.tick();
      await net.mine(1);
    }
    const returns = () =>
      net.database.db
        .select()
        .from(schema.escrowRelayerTransactions)
        .where(eq(schema.escrowRelayerTransactions.kind, 'foreign_asset_return'));
    const sentBefore = await returns();
    expect(sentBefore.filter((row) => row.subject === ghost!.subject)).toEqual([]);
    // The buyer pays again, for real this time: that deposit alone goes back.
    const buyerBefore = await net.balance('USDC', net.buyer.wallet);
    await net.pay(net.buyer, 'USDC', deposit, 2_000_000n);
    await net.settle(async () => (await net.balance('USDC', deposit)) === 0n);
    expect(await net.balance('USDC', net.buyer.wallet)).toBe(buyerBefore);
    const sent = (await returns()).filter((row) => row.escrowId === ghost!.details.escrow_id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).not.toBe(ghost!.subject);
  });
});
