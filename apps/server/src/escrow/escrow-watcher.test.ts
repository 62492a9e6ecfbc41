import { openDatabase } from '@covenant/db';
import type { EscrowStatusView } from '@covenant/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escrowSteps } from '../testing/escrow-steps.js';
import { type EscrowDevnet, startEscrowDevnet } from '../testing/start-escrow-devnet.js';
import { escrowPassLock } from './escrow-engine.js';

// Deposits count only at 2 confirmations here; a reorg below that depth must undo what was seen.
let net: EscrowDevnet;
const steps = escrowSteps(() => net);

beforeAll(async () => {
  net = await startEscrowDevnet({ confirmations: 2 });
});

afterAll(async () => {
  await net?.close();
});

describe('the deposit watcher', () => {
  it('forgets a deposit a reorg dropped before it was deep enough, then counts the one that replaces it', async () => {
    const amount = 7_000_000_000_000_000_000n;
    const dealId = await net.agreedDeal({
      assetSymbol: 'WETH',
      assetAmount: amount,
      stableSymbol: 'USDC',
      stableAmount: 21_000_000_000n,
    });
    const created = await net.call('POST', '/api/v1/escrow/create', net.buyer.token, { deal_id: dealId });
    expect(created.statusCode, created.body).toBe(201);
    const deposit = created.json().legs[0].deposit_address as string;
    const asset = async () => {
      const view: EscrowStatusView = (
        await net.call('GET', `/api/v1/deals/${dealId}/escrow`, net.seller.token)
      ).json();
      return view.legs.find((leg) => leg.leg === 'asset')!;
    };

    const beforeDeposit = await net.snapshot();
    await net.pay(net.seller, 'WETH', deposit, amount);
    await net.app.escrow.tick();
    expect(await asset()).toMatchObject({
      state: 'awaiting_deposit',
      pending: amount.toString(),
      received: '0',
      confirmations: 1,
    });

    // The block holding the deposit is replaced by two empty ones.
    await net.revert(beforeDeposit);
    await net.mine(2);
    await net.app.escrow.tick();
    expect(await asset()).toMatchObject({
      state: 'awaiting_deposit',
      pending: '0',
      received: '0',
      confirmations: 0,
    });

    await net.pay(net.seller, 'WETH', deposit, amount);
    await net.settle(async () => (await asset()).state === 'funded');
    expect(await asset()).toMatchObject({ received: amount.toString(), pending: '0' });
  });

  it('leaves a pass to another server process that is in one, and does the work once that one is done', async () => {
    const amount = 2_000_000_000_000_000_000n;
    const { dealId, deposit } = await steps.openedEscrow({
      assetSymbol: 'WETH',
      assetAmount: amount,
      stableSymbol: 'USDC',
      stableAmount: 6_000_000_000n,
    });
    const asset = async () => steps.leg(await steps.view(net.seller, dealId), 'asset');
    await net.pay(net.seller, 'WETH', deposit.asset, amount);
    await net.mine(2);
    // Another server process on the same PostgreSQL database is in a pass: this one's pass skips.
    // PGlite serves one process only, so there is no other to wait for.
    if (net.database.engine === 'postgres') {
      const otherProcess = await openDatabase({ engine: 'postgres', url: net.database.connectionString });
      try {
        await otherProcess.exclusively(escrowPassLock, async () => {
          await net.app.escrow.tick();
          expect(await asset()).toMatchObject({ state: 'awaiting_deposit', received: '0', pending: '0' });
        });
      } finally {
        await otherProcess.close();
      }
    }
    await net.app.escrow.tick();
    expect(await asset()).toMatchObject({ state: 'funded', received: amount.toString() });
  });
});
