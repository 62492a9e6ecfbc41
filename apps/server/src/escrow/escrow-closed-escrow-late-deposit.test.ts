import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escrowSteps } from '../testing/escrow-steps.js';
import { expectBooksBalance } from '../testing/expect-books-balance.js';
import {
  dealStatus,
  type EscrowDevnet,
  escrowPayoutsOf,
  startEscrowDevnet,
} from '../testing/start-escrow-devnet.js';

// A devnet of its own: these deals move both clocks and the parties' balances, which other files' tests assert.
let net: EscrowDevnet;

beforeAll(async () => {
  net = await startEscrowDevnet();
});

afterAll(async () => {
  await net?.close();
});

const hour = 3_600_000;

const { view, leg, approve, openedEscrow, fundLeg } = escrowSteps(() => net);

describe('money reaching the leg a closed escrow never paid', () => {
  // The seller deposits 1.5 WETH; the buyer's 4 500 USDC arrive only after the deal was cancelled and refunded.
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

  /** The escrow's payouts of a leg, oldest first. */
  async function payoutsOf(dealId: string, name: 'asset' | 'stable') {
    return (await escrowPayoutsOf(net.database, dealId))
      .filter((payout) => payout.leg === name)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  it('returns what reaches the unpaid leg of a refunded escrow to its depositor, unsigned after the deadline', async () => {
    const { dealId, deposit } = await openedEscrow(terms);
    await sellerFunds(dealId, deposit);
    await net.clock.advance(hour + 1_000);
    await net.app.escrow.tick();
    await net.clock.advance(72 * hour);
    await net.mine(1, 73 * 3600 + 10);
    await net.settle(async () => (await view(net.seller, dealId)).status === 'refunded');
    expect(leg(await view(net.buyer, dealId), 'stable').state).toBe('awaiting_deposit');

    // The buyer pays the stable leg after all: nothing of the closed escrow would ever pay it out.
    await net.pay(net.buyer, 'USDC', deposit.stable, stableAmount);
    const paid = await net.balance('USDC', net.buyer.wallet);
    await net.settle(async () => leg(await view(net.buyer, dealId), 'stable').state === 'refunded');
    expect(await net.balance('USDC', net.buyer.wallet)).toBe(paid + stableAmount);
    expect(await net.balance('USDC', deposit.stable)).toBe(0n);
    expect(await net.balance('USDC', net.chain.feeAddress)).toBe(0n);
    const returned = await view(net.buyer, dealId);
    expect(returned.status).toBe('refunded');
    expect(await dealStatus(net.database, dealId)).toBe('cancelled');
    // The leg's deadline had passed: the contract's own deadline refund returned it, nobody signed.
    expect(
      (await payoutsOf(dealId, 'stable')).map(({ source, kind, status }) => ({ source, kind, status })),
    ).toEqual([{ source: 'late_deposit', kind: 'refund', status: 'confirmed' }]);

    // Paid exactly once: further passes move nothing, and every base unit is accounted.
    for (let pass = 0; pass < 3; pass++) await net.app.escrow.tick();
    expect(await net.balance('USDC', net.buyer.wallet)).toBe(paid + stableAmount);
    expect(await payoutsOf(dealId, 'stable')).toHaveLength(1);
    const entries = await expectBooksBalance(net, dealId);
    expect(
      entries
        .filter((entry) => entry.leg === 'stable' && entry.kind === 'refund')
        .map((entry) => BigInt(entry.amount)),
    ).toEqual([stableAmount]);
  });

  it('returns it by a payout the depositor may approve before the deadline, and sweeps what comes after', async () => {
    const { dealId, deposit } = await openedEscrow(terms);
    await sellerFunds(dealId, deposit);
    await net.clock.advance(hour + 1_000);
    await net.app.escrow.tick();
    await approve(net.seller, dealId, 'asset');
    await net.settle(async () => (await view(net.seller, dealId)).status === 'refunded');

    const short = stableAmount / 3n;
    await net.pay(net.buyer, 'USDC', deposit.stable, short);
    const paid = await net.balance('USDC', net.buyer.wallet);
    await net.settle(async () => leg(await view(net.buyer, dealId), 'stable').release_typed_data !== null);
    expect(leg(await view(net.buyer, dealId), 'stable').state).toBe('partially_funded');
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => leg(await view(net.buyer, dealId), 'stable').state === 'refunded');
    expect(await net.balance('USDC', net.buyer.wallet)).toBe(paid + short);
    expect(await net.balance('USDC', deposit.stable)).toBe(0n);

    // The leg is settled on-chain now: more money reaching it is swept back as for any settled leg.
    await net.pay(net.buyer, 'USDC', deposit.stable, short);
    const paidAgain = await net.balance('USDC', net.buyer.wallet);
    await net.settle(async () => (await net.balance('USDC', net.buyer.wallet)) === paidAgain + short);
    await net.settle(async () => {
      const [escrow] = await net.database.db
        .select()
        .from(schema.escrows)
        .where(eq(schema.escrows.dealId, dealId));
      const sweeps = await net.database.db
        .select()
        .from(schema.escrowLedgerEntries)
        .where(eq(schema.escrowLedgerEntries.escrowId, escrow!.id));
      return sweeps.some((entry) => entry.kind === 'sweep' && entry.status === 'confirmed');
    });
    expect(await net.balance('USDC', deposit.stable)).toBe(0n);
    expect(await net.balance('USDC', net.chain.feeAddress)).toBe(0n);
    expect(await payoutsOf(dealId, 'stable')).toHaveLength(1);
    await expectBooksBalance(net, dealId);
  });
});
