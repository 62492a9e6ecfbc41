import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import { createPublicClient, type Hex, http, keccak256, parseTransaction } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escrowSteps } from '../testing/escrow-steps.js';
import {
  dealStatus,
  type EscrowDevnet,
  escrowPayoutsOf,
  startEscrowDevnet,
} from '../testing/start-escrow-devnet.js';
import { MAX_FEE_BUMPS } from './stuck-payouts.js';

// A payout that waits unmined is sent again with a higher fee on the same nonce; whichever version
// the chain mines, the deal settles once, to the base unit. The devnet stops mining on its own
// (automine off) so transactions wait in the mempool as on a busy network.
let net: EscrowDevnet;
const { approve, openedEscrow } = escrowSteps(() => net);
/** ESCROW_FEE_BUMP_AFTER_SECONDS, default. */
const bumpAfterMs = 180_000;

beforeAll(async () => {
  net = await startEscrowDevnet();
});

afterAll(async () => {
  await net?.automine(true);
  await net?.close();
});

// 0.8 WETH = 800_000_000_000_000_000 wei: fee floor(/10 000) = 80_000_000_000_000,
//   buyer receives 800_000_000_000_000_000 − 80_000_000_000_000 = 799_920_000_000_000_000.
// 2 400 USDC = 2_400_000_000: fee 240_000, seller receives 2_399_760_000.
const assetAmount = 800_000_000_000_000_000n;
const stableAmount = 2_400_000_000n;
const terms = { assetSymbol: 'WETH', assetAmount, stableSymbol: 'USDC', stableAmount };

/** A deal funded on both legs, both approved, its two payouts sent and waiting in the mempool. */
async function settlementWaitingInMempool() {
  const { dealId, deposit } = await openedEscrow(terms);
  await net.pay(net.seller, 'WETH', deposit.asset, assetAmount);
  await net.pay(net.buyer, 'USDC', deposit.stable, stableAmount);
  await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
  await net.automine(false);
  await approve(net.seller, dealId, 'asset');
  await approve(net.buyer, dealId, 'stable');
  await net.app.escrow.tick();
  const sent = await payoutsOf(dealId);
  expect(sent.map((payout) => payout.status)).toEqual(['submitted', 'submitted']);
  return { dealId, deposit, sent };
}

async function payoutsOf(dealId: string) {
  return (await escrowPayoutsOf(net.database, dealId)).sort((a, b) => a.leg.localeCompare(b.leg));
}

const client = () =>
  createPublicClient({ transport: http(net.chain.rpcUrl, { retryCount: 0 }), cacheTime: 0 });
const inMempool = async (hash: string) =>
  client()
    .getTransaction({ hash: hash as Hex })
    .then((transaction) => transaction.blockNumber === null);

describe('a payout that waits unmined', () => {
  it(`is sent again with a higher fee after ${bumpAfterMs / 1000} s, up to ${MAX_FEE_BUMPS} times, then staff are alerted; the deal settles once`, async () => {
    const { dealId, deposit, sent } = await settlementWaitingInMempool();
    const feeBefore = await net.balance('WETH', net.chain.feeAddress);

    // Not yet due: nothing changes.
    await net.clock.advance(bumpAfterMs - 1_000);
    await net.app.escrow.tick();
    expect((await payoutsOf(dealId)).map((payout) => payout.txRef)).toEqual(
      sent.map((payout) => payout.txRef),
    );

    const versions = sent.map((payout) => [payout.txRef!]);
    for (let bump = 1; bump <= MAX_FEE_BUMPS; bump++) {
      await net.clock.advance(bumpAfterMs + 1_000);
      await net.app.escrow.tick();
      const bumped = await payoutsOf(dealId);
      for (const [index, payout] of bumped.entries()) {
        const previous = versions[index]!.at(-1)!;
        expect(payout.txRef).not.toBe(previous);
        expect(payout.replacedTransactions.map((version) => version.txRef)).toEqual(versions[index]);
        // Same nonce and call, each fee field up by at least 12.5%; the node holds the new version only.
        const before = parseTransaction(payout.replacedTransactions.at(-1)!.rawTransaction as Hex);
        const after = parseTransaction(payout.rawTransaction as Hex);
        expect(after).toMatchObject({ nonce: before.nonce, to: before.to, data: before.data });
        expect(after.maxFeePerGas! * 100n).toBeGreaterThanOrEqual(before.maxFeePerGas! * 125n);
        expect(after.maxPriorityFeePerGas! * 100n).toBeGreaterThanOrEqual(
          before.maxPriorityFeePerGas! * 125n,
        );
        expect(await inMempool(payout.txRef!)).toBe(true);
        versions[index]!.push(payout.txRef!);
      }
    }
    expect(await net.database.db.select().from(schema.staffAlerts)).toEqual([]);

    // One more wait: no sixth increase, and staff are told, once per payout.
    await net.clock.advance(bumpAfterMs + 1_000);
    await net.app.escrow.tick();
    await net.app.escrow.tick();
    const last = await payoutsOf(dealId);
    expect(last.map((payout) => payout.txRef)).toEqual(versions.map((chain) => chain.at(-1)));
    const alerts = await net.database.db.select().from(schema.staffAlerts);
    expect(alerts.map((alert) => [alert.kind, alert.subject]).sort()).toEqual(
      last.map((payout) => ['payout_stuck', payout.id]).sort(),
    );

    // The network takes the last versions: the deal completes with them, paid once.
    await net.automine(true);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');
    const settled = await payoutsOf(dealId);
    expect(settled.map((payout) => [payout.status, payout.txRef])).toEqual(
      versions.map((chain) => ['confirmed', chain.at(-1)]),
    );
    expect(await net.balance('WETH', net.buyer.payoutAddress)).toBe(799_920_000_000_000_000n);
    expect(await net.balance('USDC', net.seller.payoutAddress)).toBe(2_399_760_000n);
    expect((await net.balance('WETH', net.chain.feeAddress)) - feeBefore).toBe(80_000_000_000_000n);
    expect(await net.balance('WETH', deposit.asset)).toBe(0n);
    expect(await net.balance('USDC', deposit.stable)).toBe(0n);
    const ledger = await net.database.db
      .select()
      .from(schema.escrowLedgerEntries)
      .where(eq(schema.escrowLedgerEntries.escrowId, settled[0]!.escrowId));
    const outgoing = ledger.filter((entry) => entry.kind !== 'deposit');
    expect(new Set(outgoing.map((entry) => entry.txRef))).toEqual(
      new Set(settled.map((payout) => payout.txRef)),
    );
  });

  it('takes up an earlier version when that is the one the chain mined', async () => {
    const { dealId, sent } = await settlementWaitingInMempool();
    const before = {
      buyer: await net.balance('WETH', net.buyer.payoutAddress),
      seller: await net.balance('USDC', net.seller.payoutAddress),
    };
    // As after a crash between storing a higher-fee version and sending it: the asset payout's
    // stored transaction is one the node never saw, and the first version is still in its mempool.
    const [asset] = sent;
    const first = parseTransaction(asset!.rawTransaction as Hex);
    const relayer = privateKeyToAccount(
      (await readFile(join(net.app.config.dataDir, 'keys', 'ethereum-relayer.key'), 'utf8')).trim() as Hex,
    );
    const neverSent = await relayer.signTransaction({
      chainId: first.chainId!,
      to: first.to!,
      data: first.data!,
      gas: first.gas!,
      nonce: first.nonce!,
      type: 'eip1559',
      maxFeePerGas: first.maxFeePerGas! * 2n,
      maxPriorityFeePerGas: first.maxPriorityFeePerGas! * 2n,
    });
    await net.database.db
      .update(schema.escrowPayouts)
      .set({
        rawTransaction: neverSent,
        txRef: keccak256(neverSent),
        replacedTransactions: [{ txRef: asset!.txRef!, rawTransaction: asset!.rawTransaction! }],
      })
      .where(eq(schema.escrowPayouts.id, asset!.id));

    // The chain mines the first version; the stored one can never be mined now (its nonce is spent).
    await net.automine(true);
    await net.mine(1);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');

    const [settledAsset] = await payoutsOf(dealId);
    expect(settledAsset).toMatchObject({ status: 'confirmed', txRef: asset!.txRef });
    expect(settledAsset!.replacedTransactions.map((version) => version.txRef)).toEqual([
      keccak256(neverSent),
    ]);
    expect((await net.balance('WETH', net.buyer.payoutAddress)) - before.buyer).toBe(
      799_920_000_000_000_000n,
    );
    expect((await net.balance('USDC', net.seller.payoutAddress)) - before.seller).toBe(2_399_760_000n);
  });
});

describe('a payout the node lost and refuses when sent again', () => {
  it('is tried again each pass, staff are alerted once it waited past the bump delay, and it settles once taken', async () => {
    const { dealId, sent } = await settlementWaitingInMempool();
    const relayer = (await client().getTransaction({ hash: sent[0]!.txRef as Hex })).from;
    const funds = await client().getBalance({ address: relayer });
    // The node drops both from its mempool, and the relayer can no longer pay for them.
    for (const payout of sent) {
      await client().request({ method: 'anvil_dropTransaction' as never, params: [payout.txRef] as never });
    }
    await client().request({ method: 'anvil_setBalance' as never, params: [relayer, '0x0'] as never });
    // Alerts about this deal's payouts (earlier tests leave theirs).
    const alertsOf = async () =>
      (await net.database.db.select().from(schema.staffAlerts)).filter((alert) =>
        sent.some((payout) => payout.id === alert.subject),
      );
    try {
      await net.app.escrow.tick();
      expect(await alertsOf()).toEqual([]);
      await net.clock.advance(bumpAfterMs + 1_000);
      await net.app.escrow.tick();
      const alerts = await alertsOf();
      expect(alerts.map((alert) => [alert.kind, alert.subject]).sort()).toEqual(
        sent.map((payout) => ['payout_stuck', payout.id]).sort(),
      );
      expect(alerts[0]?.message).toBe(
        'A payout transaction is no longer held by the node, which refuses it when sent again',
      );
    } finally {
      await client().request({
        method: 'anvil_setBalance' as never,
        params: [relayer, `0x${funds.toString(16)}`] as never,
      });
    }
    // Funded again: the same transactions go out (raised in fee, when a pass finds them waiting past
    // the bump delay first) and the deal completes with them, each payout once.
    await net.automine(true);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');
    const settled = await payoutsOf(dealId);
    for (const [index, payout] of settled.entries()) {
      expect(payout.status).toBe('confirmed');
      const versions = [payout.txRef, ...payout.replacedTransactions.map((version) => version.txRef)];
      expect(versions).toContain(sent[index]!.txRef);
    }
    await net.database.db.delete(schema.staffAlerts);
  });
});
