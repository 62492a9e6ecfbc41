import { covenantEscrowAbi } from '@covenant/contracts';
import { schema } from '@covenant/db';
import { createPublicClient, createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escrowSteps } from '../testing/escrow-steps.js';
import { dealStatus, type EscrowDevnet, startEscrowDevnet } from '../testing/start-escrow-devnet.js';
import { settlementSafetyMarginMs } from './legs-still-locked.js';

let net: EscrowDevnet;

beforeAll(async () => {
  net = await startEscrowDevnet();
});

afterAll(async () => {
  await net?.close();
});

const { view, leg, approve, openedEscrow } = escrowSteps(() => net);

// 1.5 WETH (seller's asset leg) for 4 500 USDC (buyer's stable leg), both paid in full.
const assetAmount = 1_500_000_000_000_000_000n;
const stableAmount = 4_500_000_000n;

async function fundedDeal() {
  const { dealId, deposit } = await openedEscrow({
    assetSymbol: 'WETH',
    assetAmount,
    stableSymbol: 'USDC',
    stableAmount,
    fundingDeadlineHours: 1,
  });
  await net.pay(net.seller, 'WETH', deposit.asset, assetAmount);
  await net.pay(net.buyer, 'USDC', deposit.stable, stableAmount);
  await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
  return { dealId, deposit };
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
    const chainNow = Number((await client.getBlock()).timestamp) * 1000;
    await net.mine(1, Math.ceil((refundAfter - chainNow) / 1000) + 10);
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

  it('starts no settlement within the safety margin of a leg’s deadline, even with both approvals', async () => {
    const { dealId, deposit } = await fundedDeal();
    const opened = await view(net.seller, dealId);
    const refundAfter = Date.parse(leg(opened, 'asset').refund_after ?? '');
    // On the server's clock, half the margin before the deadline.
    await net.clock.advance(refundAfter - settlementSafetyMarginMs / 2 - net.clock.now.getTime());

    await approve(net.seller, dealId, 'asset');
    await approve(net.buyer, dealId, 'stable');
    for (let pass = 0; pass < 3; pass++) {
      await net.app.escrow.tick();
      await net.mine(1);
    }

    expect(await net.balance('WETH', net.buyer.payoutAddress)).toBe(0n);
    expect(await net.balance('WETH', deposit.asset)).toBe(assetAmount);
    expect(await net.balance('USDC', deposit.stable)).toBe(stableAmount);
    const held = await view(net.buyer, dealId);
    expect(leg(held, 'asset').payout).toMatchObject({ status: 'ready' });
    expect(leg(held, 'stable').payout).toMatchObject({ status: 'ready' });
    expect(await alertKinds(held.escrow_id)).toEqual(['settlement_window_closed']);
    expect(await dealStatus(net.database, dealId)).toBe('escrow_funded');
  });
});
