import { fundFromDevnetWallet } from '@covenant/devnets';
import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSettlement } from '../settlement-plan.js';
import { type EthereumFixture, startEthereumFixture } from './ethereum-test-fixture.js';
import { GAS_BUFFER_PERCENT, gasLimitOf } from './gas-limit.js';

describe('the gas buffer', () => {
  it('is the estimate plus 20%, rounded up to the next unit of gas', () => {
    expect(GAS_BUFFER_PERCENT).toBe(20n);
    // 100_000 × 1.2 = 120_000 exactly.
    expect(gasLimitOf(100_000n)).toBe(120_000n);
    // 21_001 × 1.2 = 25_201.2 → 25_202.
    expect(gasLimitOf(21_001n)).toBe(25_202n);
    // 5 × 1.2 = 6.
    expect(gasLimitOf(5n)).toBe(6n);
  });
});

// Every kind of transaction the relayer sends on a real anvil: an escrow's deployment, a payout, a
// sweep of a late deposit, a wrong token's return and a refund after the deadline. Each one mined
// alone in its block, its gas limit is read back from the chain and compared with the node's own
// estimate of the same call on the state just before that block (the state the relayer estimated on).
describe('Ethereum relayer: gas limit of every sent transaction', () => {
  let fx: EthereumFixture;
  beforeAll(async () => {
    fx = await startEthereumFixture();
  });
  afterAll(async () => {
    await fx.stop();
  });

  /** The sent transaction's gas limit, and the node's estimate of its call before its block. */
  async function gasOf(txRef: string) {
    const receipt = await fx.client.waitForTransactionReceipt({ hash: txRef as Hex });
    expect(receipt.status).toBe('success');
    const sent = await fx.client.getTransaction({ hash: txRef as Hex });
    expect(sent.from.toLowerCase()).toBe(fx.ethereum.relayerAddress.toLowerCase());
    const estimate = await fx.client.estimateGas({
      account: sent.from,
      to: sent.to ?? undefined,
      data: sent.input,
      value: sent.value,
      blockNumber: receipt.blockNumber - 1n,
    });
    return { limit: sent.gas, estimate, used: receipt.gasUsed };
  }

  async function expectBuffered(txRef: string | null) {
    if (!txRef) throw new Error('no transaction was sent');
    const { limit, estimate, used } = await gasOf(txRef);
    expect(limit).toBe(gasLimitOf(estimate));
    expect(limit * 100n).toBeGreaterThanOrEqual(estimate * 120n);
    expect(used).toBeLessThanOrEqual(estimate);
  }

  it('deploys, pays out, sweeps, returns a wrong token and refunds with the estimate plus 20%', async () => {
    const terms = fx.legTerms();
    const opened = await fx.ethereum.openLeg(terms);
    await expectBuffered(opened.txRef);
    const leg = await fx.openLeg(terms);
    const fund = (token: Address, amount: bigint) =>
      fundFromDevnetWallet({ rpcUrl: fx.anvil.rpcUrl, token, to: leg.depositAddress as Address, amount });
    await fund(fx.devnet.tokens.USDT.address, 1_000_000_000n);

    const release = await fx.ethereum.buildPayout(
      leg,
      planSettlement(leg, 1_000_000_000n, { kind: 'release' }, fx.feeAddress),
    );
    const payout = await fx.ethereum.submit(release, [
      await fx.sign(release, 'buyer'),
      await fx.sign(release, 'seller'),
    ]);
    await expectBuffered(payout.txRef);

    await fund(fx.devnet.tokens.USDT.address, 250n);
    const wethArrival = await fund(fx.devnet.tokens.WETH.address, 31n);
    const sweep = await fx.ethereum.signSweep(leg.depositAddress);
    await fx.ethereum.broadcast(sweep);
    await expectBuffered(sweep.txRef);
    const returned = await fx.ethereum.signReturnForeignAsset(leg.depositAddress, {
      txRef: wethArrival,
      position: 0,
      tokenAddress: fx.devnet.tokens.WETH.address,
      amount: 31n,
      to: leg.receiverPayoutAddress,
    });
    await fx.ethereum.broadcast(returned);
    await expectBuffered(returned.txRef);

    const latest = await fx.client.getBlock();
    const late = await fx.openLeg(
      fx.legTerms({ refundAfter: new Date(Number(latest.timestamp + 600n) * 1000) }),
    );
    await fundFromDevnetWallet({
      rpcUrl: fx.anvil.rpcUrl,
      token: fx.devnet.tokens.USDT.address,
      to: late.depositAddress as Address,
      amount: 7n,
    });
    await fx.testClient.increaseTime({ seconds: 601 });
    await fx.testClient.mine({ blocks: 1 });
    const refund = await fx.ethereum.signRefundAfterDeadline(late.depositAddress);
    await fx.ethereum.broadcast(refund);
    await expectBuffered(refund.txRef);
  });
});
