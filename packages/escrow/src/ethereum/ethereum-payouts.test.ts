import { PayoutAction } from '@covenant/contracts';
import { fundFromDevnetWallet } from '@covenant/devnets';
import { type Address, getAddress, type Hex, parseTransaction } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSettlement, type SettlementOutcome } from '../settlement-plan.js';
import type { EscrowLeg } from '../types.js';
import { type EthereumFixture, startEthereumFixture } from './ethereum-test-fixture.js';
import { type PayoutTypedDataJson, typedDataFromJson } from './payout-typed-data.js';

describe('Ethereum adapter: payouts', () => {
  let fx: EthereumFixture;
  beforeAll(async () => {
    fx = await startEthereumFixture();
  });
  afterAll(async () => {
    await fx.stop();
  });

  const tokenOf = (leg: EscrowLeg) => leg.tokenAddress as Address | null;

  async function fundedLeg(overrides: Parameters<EthereumFixture['legTerms']>[0], deposit: bigint) {
    const leg = await fx.openLeg(fx.legTerms(overrides));
    await fundFromDevnetWallet({
      rpcUrl: fx.anvil.rpcUrl,
      token: tokenOf(leg),
      to: leg.depositAddress as Address,
      amount: deposit,
    });
    return leg;
  }

  async function balances(leg: EscrowLeg) {
    const token = tokenOf(leg);
    return {
      escrow: await fx.balanceOf(token, leg.depositAddress),
      receiver: await fx.balanceOf(token, leg.receiverPayoutAddress),
      fee: await fx.balanceOf(token, fx.feeAddress),
      depositor: await fx.balanceOf(token, leg.depositorRefundAddress),
    };
  }

  const plan = (leg: EscrowLeg, received: bigint, outcome: SettlementOutcome) =>
    planSettlement(leg, received, outcome, fx.feeAddress);

  async function mined(txRef: string) {
    const receipt = await fx.client.waitForTransactionReceipt({ hash: txRef as Hex });
    expect(receipt.status).toBe('success');
    return receipt;
  }

  it('releases a WETH leg with the buyer and platform signatures, to the base unit, and a second broadcast changes nothing', async () => {
    // 3.999999999999999999 WETH required, 5 wei too many deposited:
    // fee = floor(3_999_999_999_999_999_999 / 10_000) = 399_999_999_999_999;
    // receiver = 3_999_999_999_999_999_999 − 399_999_999_999_999 = 3_999_600_000_000_000_000; 5 wei back.
    const amount = 3_999_999_999_999_999_999n;
    const leg = await fundedLeg(
      { leg: 'asset', symbol: 'WETH', tokenAddress: fx.devnet.tokens.WETH.address, requiredAmount: amount },
      amount + 5n,
    );
    const payout = await fx.ethereum.buildPayout(leg, plan(leg, amount + 5n, { kind: 'release' }));
    expect(await fx.ethereum.buildPayout(leg, plan(leg, amount + 5n, { kind: 'release' }))).toEqual(payout);
    const json = payout.signingPayload as PayoutTypedDataJson;
    expect(json.domain).toEqual({
      name: 'CovenantEscrow',
      version: '1',
      chainId: fx.anvil.chainId,
      verifyingContract: leg.depositAddress,
    });
    expect(json.message).toEqual({
      action: PayoutAction.Release,
      recipients: [leg.receiverPayoutAddress],
      amounts: [amount.toString()],
      nonce: '0',
    });
    expect(payout.payoutRef).toMatch(new RegExp(`^${leg.depositAddress}:0:0:0x[0-9a-f]{64}$`));

    const transaction = await fx.ethereum.signPayoutTransaction(payout, [
      await fx.sign(payout, 'buyer'),
      await fx.sign(payout, 'platform'),
    ]);
    await fx.ethereum.broadcast(transaction);
    const receipt = await mined(transaction.txRef);
    expect(receipt.transactionHash).toBe(transaction.txRef);
    expect(await balances(leg)).toEqual({
      escrow: 0n,
      receiver: 3_999_600_000_000_000_000n,
      fee: 399_999_999_999_999n,
      depositor: 5n,
    });
    expect(await fx.ethereum.isSettled(leg)).toBe(true);
    const at = { blockRef: receipt.blockHash, height: receipt.blockNumber };
    const outgoing = await fx.ethereum.outgoingMovements(transaction.txRef, leg);
    expect(outgoing.reverted).toBe(false);
    expect(outgoing.movements.map(({ position, ...rest }) => rest)).toEqual([
      { kind: 'payout', to: leg.receiverPayoutAddress, amount: 3_999_600_000_000_000_000n, ...at },
      { kind: 'fee', to: fx.feeAddress, amount: 399_999_999_999_999n, ...at },
      { kind: 'refund', to: leg.depositorRefundAddress, amount: 5n, ...at },
    ]);
    const positions = outgoing.movements.map((movement) => movement.position);
    expect(new Set(positions).size).toBe(3);
    expect(positions.every((position) => receipt.logs.some((log) => log.logIndex === position))).toBe(true);

    const nonce = await fx.client.getTransactionCount({ address: fx.ethereum.relayerAddress });
    await fx.ethereum.broadcast(transaction);
    expect(await fx.client.getTransactionCount({ address: fx.ethereum.relayerAddress })).toBe(nonce);
    expect((await balances(leg)).receiver).toBe(3_999_600_000_000_000_000n);
  });

  it("splits a USDC leg through submit (signatures in any order): the receiver's share pays the fee, the rest goes back whole", async () => {
    // 1,000 USDC: 600 to the receiver, 400 back. Fee = 600_000_000 / 10_000 = 60_000;
    // receiver 600_000_000 − 60_000 = 599_940_000; depositor 400_000_000.
    const leg = await fundedLeg(
      { symbol: 'USDC', tokenAddress: fx.devnet.tokens.USDC.address, requiredAmount: 1_000_000_000n },
      1_000_000_000n,
    );
    const outcome = { kind: 'split', toReceiver: 600_000_000n, toDepositor: 400_000_000n } as const;
    const payout = await fx.ethereum.buildPayout(leg, plan(leg, 1_000_000_000n, outcome));
    expect((payout.signingPayload as PayoutTypedDataJson).message).toMatchObject({
      action: PayoutAction.Split,
      recipients: [leg.receiverPayoutAddress],
      amounts: ['600000000'],
    });
    const { txRef } = await fx.ethereum.submit(payout, [
      await fx.sign(payout, 'platform'),
      await fx.sign(payout, 'seller'),
    ]);
    await mined(txRef);
    expect(await balances(leg)).toEqual({
      escrow: 0n,
      receiver: 599_940_000n,
      fee: 60_000n,
      depositor: 400_000_000n,
    });
    const { movements } = await fx.ethereum.outgoingMovements(txRef, leg);
    expect(movements.map(({ kind, amount }) => ({ kind, amount }))).toEqual([
      { kind: 'payout', amount: 599_940_000n },
      { kind: 'fee', amount: 60_000n },
      { kind: 'refund', amount: 400_000_000n },
    ]);
  });

  it('turns a split giving the receiver nothing into a refund payout', async () => {
    const leg = await fx.openLeg(fx.legTerms());
    const payout = await fx.ethereum.buildPayout(
      leg,
      plan(leg, 1_000_000_000n, { kind: 'split', toReceiver: 0n, toDepositor: 1_000_000_000n }),
    );
    expect((payout.signingPayload as PayoutTypedDataJson).message).toEqual({
      action: PayoutAction.Refund,
      recipients: [],
      amounts: [],
      nonce: '0',
    });
  });

  it('refunds an ETH leg whole, without fee', async () => {
    const leg = await fundedLeg(
      { leg: 'asset', symbol: 'ETH', tokenAddress: null, requiredAmount: 10n ** 18n },
      10n ** 18n,
    );
    const payout = await fx.ethereum.buildPayout(leg, plan(leg, 10n ** 18n, { kind: 'refund' }));
    const { txRef } = await fx.ethereum.submit(payout, [
      await fx.sign(payout, 'seller'),
      await fx.sign(payout, 'buyer'),
    ]);
    await mined(txRef);
    expect(await balances(leg)).toEqual({ escrow: 0n, receiver: 0n, fee: 0n, depositor: 10n ** 18n });
    const { movements } = await fx.ethereum.outgoingMovements(txRef, leg);
    expect(movements.map(({ kind, to, amount }) => ({ kind, to, amount }))).toEqual([
      { kind: 'refund', to: leg.depositorRefundAddress, amount: 10n ** 18n },
    ]);
  });

  it('refunds after the deadline with the relayer alone, and lists that refund once', async () => {
    const latest = await fx.client.getBlock();
    const refundAfter = new Date(Number(latest.timestamp + 600n) * 1000);
    const leg = await fundedLeg({ refundAfter }, 1_000_000_001n);

    await expect(fx.ethereum.signRefundAfterDeadline(leg.depositAddress)).rejects.toThrow(
      /refundAfterDeadline .* would revert: CovenantEscrowDeadlineNotReached\(/,
    );
    await fx.testClient.increaseTime({ seconds: 601 });
    await fx.testClient.mine({ blocks: 1 });
    const transaction = await fx.ethereum.signRefundAfterDeadline(leg.depositAddress);
    await fx.ethereum.broadcast(transaction);
    await mined(transaction.txRef);

    expect(await balances(leg)).toEqual({ escrow: 0n, receiver: 0n, fee: 0n, depositor: 1_000_000_001n });
    expect(await fx.ethereum.isSettled(leg)).toBe(true);
    const { movements } = await fx.ethereum.outgoingMovements(transaction.txRef, leg);
    expect(movements.map(({ kind, to, amount }) => ({ kind, to, amount }))).toEqual([
      { kind: 'refund', to: leg.depositorRefundAddress, amount: 1_000_000_001n },
    ]);
  });

  it('replaces a payout stuck in the mempool with a higher fee on the same nonce: only the replacement is mined', async () => {
    const leg = await fundedLeg({ requiredAmount: 2_000_000_000n }, 2_000_000_000n);
    const payout = await fx.ethereum.buildPayout(leg, plan(leg, 2_000_000_000n, { kind: 'refund' }));
    const signatures = [await fx.sign(payout, 'seller'), await fx.sign(payout, 'platform')];
    await fx.testClient.setAutomine(false);
    try {
      const stuck = await fx.ethereum.signPayoutTransaction(payout, signatures);
      await fx.ethereum.broadcast(stuck);
      expect(await fx.ethereum.confirmations(stuck.txRef)).toEqual({ state: 'mempool' });

      const bump = await fx.ethereum.bumpFee(payout, stuck, 1);
      expect(bump.replaces).toBe(true);
      const bumped = bump.transaction;
      const before = parseTransaction(stuck.rawTransaction);
      const after = parseTransaction(bumped.rawTransaction);
      expect(after).toMatchObject({ nonce: before.nonce, to: before.to, data: before.data, gas: before.gas });
      // Each fee field is at least 12.5% more (rounded up): nodes want 10%.
      expect(after.maxFeePerGas! * 100n).toBeGreaterThanOrEqual(before.maxFeePerGas! * 125n);
      expect(after.maxPriorityFeePerGas! * 100n).toBeGreaterThanOrEqual(before.maxPriorityFeePerGas! * 125n);
      expect(bumped.txRef).not.toBe(stuck.txRef);
      await fx.ethereum.broadcast(bumped);
      // A second bump raises it again.
      const again = parseTransaction(
        (await fx.ethereum.bumpFee(payout, bumped, 2)).transaction.rawTransaction,
      );
      expect(again.maxFeePerGas! * 100n).toBeGreaterThanOrEqual(after.maxFeePerGas! * 125n);

      await fx.testClient.mine({ blocks: 1 });
      expect(await fx.ethereum.confirmations(bumped.txRef)).toMatchObject({ state: 'included' });
      expect(await fx.ethereum.confirmations(stuck.txRef)).toEqual({ state: 'unknown' });
      // The first version can no longer be mined: its nonce is spent.
      await expect(fx.ethereum.broadcast(stuck)).rejects.toThrow(/nonce/i);
    } finally {
      await fx.testClient.setAutomine(true);
    }
    expect(await balances(leg)).toEqual({ escrow: 0n, receiver: 0n, fee: 0n, depositor: 2_000_000_000n });
  });

  it('recovers the signer of a payout signature, another address for a foreign key, null for garbage', async () => {
    const leg = await fx.openLeg(fx.legTerms());
    const payout = await fx.ethereum.buildPayout(leg, plan(leg, 1_000_000_000n, { kind: 'release' }));
    const buyer = await fx.sign(payout, 'buyer');
    expect(await fx.ethereum.recoverSigner(payout, buyer.signature)).toBe(leg.signers.buyer);

    const stranger = privateKeyToAccount(`0x${'42'.repeat(32)}`);
    const foreign = await stranger.signTypedData(typedDataFromJson(payout.signingPayload));
    expect(await fx.ethereum.recoverSigner(payout, foreign)).toBe(getAddress(stranger.address));
    expect(await fx.ethereum.recoverSigner(payout, '0x1234')).toBeNull();
    expect(await fx.ethereum.recoverSigner(payout, 'not a signature')).toBeNull();
  });

  it('takes a signature with v as 0/1 or its high-s twin as the approval it is, stored as the contract takes it: the payout executes', async () => {
    // 1,000 USDC released: fee = 1_000_000_000 / 10_000 = 100_000; receiver 999_900_000.
    const leg = await fundedLeg({}, 1_000_000_000n);
    const payout = await fx.ethereum.buildPayout(leg, plan(leg, 1_000_000_000n, { kind: 'release' }));
    const buyer = await fx.sign(payout, 'buyer');
    const platform = await fx.sign(payout, 'platform');
    const curveOrder = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const r = buyer.signature.slice(2, 66);
    const s = BigInt(`0x${buyer.signature.slice(66, 130)}`);
    const parity = buyer.signature.slice(130) === '1b' ? 0 : 1;
    const yParityForm = `0x${r}${s.toString(16).padStart(64, '0')}0${parity}`;
    const highSTwin = `0x${r}${(curveOrder - s).toString(16).padStart(64, '0')}${parity === 0 ? '1c' : '1b'}`;
    for (const form of [yParityForm, highSTwin]) {
      expect(await fx.ethereum.verifyApproval(payout, form, leg.signers.buyer)).toEqual({
        valid: true,
        signature: buyer.signature,
      });
    }
    const twin = await fx.ethereum.verifyApproval(payout, highSTwin, leg.signers.buyer);
    if (!twin.valid) throw new Error('the twin was refused');
    const { txRef } = await fx.ethereum.submit(payout, [
      { signer: 'buyer', signature: twin.signature },
      platform,
    ]);
    await mined(txRef);
    expect((await balances(leg)).receiver).toBe(999_900_000n);
    // Neither a v outside 0, 1, 27, 28 nor a 64-byte signature is one.
    expect(await fx.ethereum.recoverSigner(payout, `${buyer.signature.slice(0, 130)}1d`)).toBeNull();
    expect(await fx.ethereum.recoverSigner(payout, buyer.signature.slice(0, 130))).toBeNull();
  });

  it("refuses to sign a payout the escrow would reject, naming the contract's error", async () => {
    const leg = await fundedLeg({}, 999_999_999n);
    const release = await fx.ethereum.buildPayout(leg, plan(leg, 1_000_000_000n, { kind: 'release' }));
    const buyer = await fx.sign(release, 'buyer');
    await expect(fx.ethereum.signPayoutTransaction(release, [buyer])).rejects.toThrow(
      /CovenantEscrowNotEnoughSignatures\(1, 2\)/,
    );
    await expect(fx.ethereum.signPayoutTransaction(release, [buyer, buyer])).rejects.toThrow(
      /CovenantEscrowDuplicateSigner\(/,
    );
    // One unit short of the required amount.
    await expect(
      fx.ethereum.signPayoutTransaction(release, [buyer, await fx.sign(release, 'seller')]),
    ).rejects.toThrow(/CovenantEscrowInsufficientBalance\(1000000000, 999999999\)/);
    expect(await fx.ethereum.isSettled(leg)).toBe(false);
  });
  it('sweeps a deposit that came after settlement and returns a wrong token; a second transaction on a taken nonce is refused', async () => {
    const leg = await fundedLeg({}, 1_000_000_000n);
    const release = await fx.ethereum.buildPayout(leg, plan(leg, 1_000_000_000n, { kind: 'release' }));
    const { txRef } = await fx.ethereum.submit(release, [
      await fx.sign(release, 'buyer'),
      await fx.sign(release, 'seller'),
    ]);
    await mined(txRef);
    const fund = (token: Address, amount: bigint) =>
      fundFromDevnetWallet({ rpcUrl: fx.anvil.rpcUrl, token, to: leg.depositAddress as Address, amount });
    await fund(fx.devnet.tokens.USDT.address, 250n);
    const wethArrival = await fund(fx.devnet.tokens.WETH.address, 31n);
    // The WETH came from the devnet wallet, no party's: staff chose to send it to the depositor.
    const wethReturn = {
      txRef: wethArrival,
      position: 0,
      tokenAddress: fx.devnet.tokens.WETH.address,
      amount: 31n,
      to: leg.depositorRefundAddress,
    };

    // Both signed before either is sent, so both take the relayer's next nonce.
    const sweep = await fx.ethereum.signSweep(leg.depositAddress);
    const returnWeth = await fx.ethereum.signReturnForeignAsset(leg.depositAddress, wethReturn);
    await fx.ethereum.broadcast(sweep);
    const swept = await mined(sweep.txRef);
    await expect(fx.ethereum.broadcast(returnWeth)).rejects.toThrow(/nonce too low/i);

    const { movements } = await fx.ethereum.outgoingMovements(sweep.txRef, leg);
    expect(movements).toEqual([
      {
        kind: 'sweep',
        to: leg.depositorRefundAddress,
        amount: 250n,
        position: movements[0]?.position,
        blockRef: swept.blockHash,
        height: swept.blockNumber,
      },
    ]);
    const again = await fx.ethereum.signReturnForeignAsset(leg.depositAddress, wethReturn);
    await fx.ethereum.broadcast(again);
    await mined(again.txRef);
    expect(await fx.balanceOf(fx.devnet.tokens.WETH.address, leg.depositorRefundAddress)).toBe(31n);
    expect(await fx.balanceOf(fx.devnet.tokens.USDT.address, leg.depositorRefundAddress)).toBe(250n);
    // Not the leg's asset: nothing for the leg's ledger.
    expect(await fx.ethereum.outgoingMovements(again.txRef, leg)).toEqual({
      reverted: false,
      movements: [],
    });
  });
});
