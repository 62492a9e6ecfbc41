import { schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escrowSteps } from '../testing/escrow-steps.js';
import { expectBooksBalance } from '../testing/expect-books-balance.js';
import {
  dealStatus,
  type EscrowDevnet,
  escrowPayoutsOf,
  startEscrowDevnet,
} from '../testing/start-escrow-devnet.js';

// A Bitcoin payout's fee rate is signed into it. When the node's minimum relay fee rises above it
// while the approvals are collected (as a filling mempool raises Bitcoin Core's), the node would
// refuse it for good: it is built again at the rate the node relays now and approved again, and
// nothing of the settlement goes meanwhile. Against a real bcoin regtest node (payouts at the
// server's 2 sat/vB floor: bcoin has no fee estimate on regtest) and the Ethereum devnet.
let net: EscrowDevnet;
const steps = escrowSteps(() => net);
const { view, leg, approve, approvePsbt, openedEscrow } = steps;

beforeAll(async () => {
  net = await startEscrowDevnet({ bitcoin: true });
});

afterAll(async () => {
  await net?.close();
});

const btc = () => net.bitcoin!;

async function assetLeg(dealId: string, party = net.seller) {
  return leg(await view(party, dealId), 'asset');
}

describe('a Bitcoin payout whose fee rate falls below what the node relays', () => {
  // Asset leg 0.2 BTC = 20_000_000 sats (the seller deposits): fee floor(20_000_000 / 10_000) = 2_000.
  // Stable leg 6,000 USDT = 6_000_000_000 on Ethereum (the buyer deposits).
  const assetAmount = 20_000_000n;
  const stableAmount = 6_000_000_000n;

  it('is built again at the node’s minimum and approved again; nothing goes before, all of it after', async () => {
    const { dealId, deposit } = await openedEscrow({
      assetSymbol: 'BTC',
      assetChain: 'BTC',
      assetAmount,
      stableSymbol: 'USDT',
      stableAmount,
    });
    await btc().pay(deposit.asset, assetAmount);
    await btc().mine(2);
    await net.pay(net.buyer, 'USDT', deposit.stable, stableAmount);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');

    const first = await approvePsbt(net.seller, dealId, 'asset');
    expect(first.summary.fee_rate_sat_vb).toBe('2');
    const firstRef = (await escrowPayoutsOf(net.database, dealId)).find(
      (payout) => payout.leg === 'asset',
    )!.payoutRef;
    try {
      // The mempool fills: the node now relays nothing below 12 sat/vB.
      await btc().regtest.setMinRelayFee(12n);
      await approve(net.buyer, dealId, 'stable');
      await net.app.escrow.tick();

      // Neither leg went: the Bitcoin payout was built again at 12 sat/vB and awaits the seller again.
      const payouts = await escrowPayoutsOf(net.database, dealId);
      const asset = payouts.find((payout) => payout.leg === 'asset')!;
      const stable = payouts.find((payout) => payout.leg === 'stable')!;
      expect(asset.status).toBe('collecting');
      expect(asset.payoutRef).not.toBe(firstRef);
      expect(stable.status).toBe('ready');
      expect(stable.txRef).toBeNull();
      expect(await dealStatus(net.database, dealId)).toBe('escrow_funded');
      const shown = await assetLeg(dealId);
      expect(shown.payout?.status).toBe('collecting');
      // Both parties are told why the approval is asked for again.
      const notices = await net.database.db
        .select({
          userId: schema.notifications.userId,
          title: schema.notifications.title,
          body: schema.notifications.body,
        })
        .from(schema.notifications)
        .where(
          and(
            eq(schema.notifications.dealId, dealId),
            eq(schema.notifications.kind, 'escrow_payout_rebuilt'),
          ),
        );
      expect(notices.map((notice) => notice.userId).sort()).toEqual([net.buyer.id, net.seller.id].sort());
      expect(notices[0]).toMatchObject({
        title: 'Approve the payout again',
        body: 'The asset leg’s payout could not be sent as approved: the Bitcoin network’s minimum fee rose above the fee it was built with. It was built again at the current fee, and nothing left the escrow. Approve it again in the deal room.',
      });

      const again = await approvePsbt(net.seller, dealId, 'asset');
      expect(again.summary.fee_rate_sat_vb).toBe('12');
      const networkFee = BigInt(again.summary.network_fee);
      // The same transaction at 6 times the rate: the network fee is 6 times the first one's.
      expect(networkFee).toBe(BigInt(first.summary.network_fee) * 6n);
      expect(again.summary.outputs).toEqual([
        {
          kind: 'payout',
          to: net.buyer.bitcoin!.payoutAddress,
          amount: (assetAmount - 2_000n - networkFee).toString(),
        },
        { kind: 'fee', to: btc().info.feeAddress, amount: '2000' },
      ]);
      await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');
      const payoutTx = (await assetLeg(dealId)).payout!.transaction_hash!;
      expect(await btc().outputsOf(payoutTx)).toEqual([
        { address: net.buyer.bitcoin!.payoutAddress, amount: assetAmount - 2_000n - networkFee },
        { address: btc().info.feeAddress, amount: 2_000n },
      ]);
      await expectBooksBalance(net, dealId);
    } finally {
      await btc().regtest.setMinRelayFee(1n);
    }
  });
});
