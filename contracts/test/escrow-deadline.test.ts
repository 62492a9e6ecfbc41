import { createTestClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { covenantEscrowAbi, refundPayout } from '../src/index.js';
import { type EscrowFixture, revertOf, startEscrowFixture } from './escrow-fixture.js';

describe('CovenantEscrow after the deadline', () => {
  let fx: EscrowFixture;
  beforeAll(async () => {
    fx = await startEscrowFixture();
  });
  afterAll(async () => {
    await fx.stop();
  });

  it('lets a third party refund the whole balance to the depositor once the deadline has passed', async () => {
    const token = fx.devnet.tokens.USDC.address;
    const now = (await fx.publicClient.getBlock()).timestamp;
    const terms = fx.legTerms({ token, amount: 2_000_000_000n, deadline: now + 3_600n });
    const escrow = await fx.createEscrow(terms);
    // Under-funded: 1,500 of the 2,000 USDC required.
    await fx.fund(token, escrow, 1_500_000_000n);

    const stranger = privateKeyToAccount(fx.anvil.accounts[4]!);
    const strangerClient = createWalletClient({
      account: stranger,
      chain: foundry,
      transport: http(fx.anvil.rpcUrl, { retryCount: 0 }),
      cacheTime: 0,
    });
    const refund = () =>
      fx.publicClient.simulateContract({
        account: stranger,
        address: escrow,
        abi: covenantEscrowAbi,
        functionName: 'refundAfterDeadline',
      });
    expect(await revertOf(refund())).toEqual({
      errorName: 'CovenantEscrowDeadlineNotReached',
      args: [terms.deadline],
    });

    const testClient = createTestClient({
      mode: 'anvil',
      chain: foundry,
      transport: http(fx.anvil.rpcUrl, { retryCount: 0 }),
    });
    await testClient.increaseTime({ seconds: 3_601 });
    await testClient.mine({ blocks: 1 });
    await refund();
    const hash = await strangerClient.writeContract({
      address: escrow,
      abi: covenantEscrowAbi,
      functionName: 'refundAfterDeadline',
    });
    await fx.confirm(hash);

    expect(await fx.balanceOf(token, terms.depositor)).toBe(1_500_000_000n);
    expect(await fx.balanceOf(token, terms.receiver)).toBe(0n);
    expect(await fx.balanceOf(token, terms.feeRecipient)).toBe(0n);
    expect(await fx.balanceOf(token, escrow)).toBe(0n);
    expect(
      await fx.publicClient.readContract({
        address: escrow,
        abi: covenantEscrowAbi,
        functionName: 'settled',
      }),
    ).toBe(true);
    expect((await revertOf(refund())).errorName).toBe('CovenantEscrowAlreadySettled');
    const payout = refundPayout();
    expect(
      (await revertOf(fx.executePayout(escrow, payout, await fx.sign(escrow, payout, ['buyer', 'seller']))))
        .errorName,
    ).toBe('CovenantEscrowAlreadySettled');
  });
});
