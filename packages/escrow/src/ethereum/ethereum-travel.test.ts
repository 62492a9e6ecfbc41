import { PayoutAction } from '@covenant/contracts';
import { fundFromDevnetWallet } from '@covenant/devnets';
import { AppError, travelReceiverShare } from '@covenant/domain';
import { type Address, getAddress, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnsignedPayout } from '../chain-adapter.js';
import type { OutgoingMovement } from '../escrow-chain-adapter.js';
import { legState } from '../leg-state.js';
import { reconcileLeg } from '../reconcile.js';
import { planSettlement, planTravelPayout } from '../settlement-plan.js';
import type { EscrowLeg, LedgerEntry } from '../types.js';
import { type EthereumFixture, freshAddress, startEthereumFixture } from './ethereum-test-fixture.js';
import type { PayoutTypedDataJson } from './payout-typed-data.js';

// The worked example's stable leg: 100 000 USDC (6 decimals) = 100 000 000 000 units, fee 1 bp =
// 10 000 000; a 2 000 USDC hotel = 2 000 000 000 units.
const A = 100_000_000_000n;
const FEE = 10_000_000n;
const T = 2_000_000_000n;

describe('Ethereum adapter: travel payouts', () => {
  let fx: EthereumFixture;
  beforeAll(async () => {
    fx = await startEthereumFixture();
  });
  afterAll(async () => {
    await fx.stop();
  });

  async function fundedUsdcLeg(deposit: bigint): Promise<EscrowLeg> {
    const leg = await fx.openLeg(
      fx.legTerms({ symbol: 'USDC', tokenAddress: fx.devnet.tokens.USDC.address, requiredAmount: A }),
    );
    await fundFromDevnetWallet({
      rpcUrl: fx.anvil.rpcUrl,
      token: leg.tokenAddress as Address,
      to: leg.depositAddress as Address,
      amount: deposit,
    });
    return leg;
  }

  /** Balances of the leg's addresses; the fee address is shared by every leg, so the fee is what it gained since `feeBefore`. */
  async function balances(leg: EscrowLeg, payee: string, feeBefore: bigint) {
    const token = leg.tokenAddress as Address;
    return {
      escrow: await fx.balanceOf(token, leg.depositAddress),
      payee: await fx.balanceOf(token, payee),
      receiver: await fx.balanceOf(token, leg.receiverPayoutAddress),
      fee: (await fx.balanceOf(token, fx.feeAddress)) - feeBefore,
      depositor: await fx.balanceOf(token, leg.depositorRefundAddress),
    };
  }

  async function run(
    payout: UnsignedPayout,
    signers: ['buyer' | 'seller' | 'platform', 'buyer' | 'seller' | 'platform'],
  ) {
    const { txRef } = await fx.ethereum.submit(payout, [
      await fx.sign(payout, signers[0]),
      await fx.sign(payout, signers[1]),
    ]);
    const receipt = await fx.client.waitForTransactionReceipt({ hash: txRef as Hex });
    expect(receipt.status).toBe('success');
    return txRef;
  }

  const message = (payout: UnsignedPayout) => (payout.signingPayload as PayoutTypedDataJson).message;

  /** The ledger the watcher would record: the deposit, then each movement read back, all confirmed. */
  function ledgerOf(
    deposit: bigint,
    movements: { txRef: string; movement: OutgoingMovement }[],
  ): LedgerEntry[] {
    return [
      {
        kind: 'deposit',
        amount: deposit,
        txRef: '0xdeposit',
        position: 0,
        blockRef: '0xblock',
        height: 1n,
        confirmations: 3,
        status: 'confirmed',
      },
      ...movements.map(({ txRef, movement }) => ({
        kind: movement.kind,
        amount: movement.amount,
        txRef,
        position: movement.position,
        blockRef: movement.blockRef,
        height: movement.height,
        confirmations: 3,
        status: 'confirmed' as const,
      })),
    ];
  }

  it('pays a hotel out of the open leg, reads it back as travel, then releases charging the seller, to the base unit', async () => {
    const leg = await fundedUsdcLeg(A);
    const hotel = getAddress(freshAddress());
    const feeBefore = await fx.balanceOf(leg.tokenAddress as Address, fx.feeAddress);

    const travel = await fx.ethereum.buildPayout(leg, planTravelPayout(leg, hotel, T));
    expect(message(travel)).toEqual({
      action: PayoutAction.Travel,
      recipients: [hotel],
      amounts: [T.toString()],
      nonce: '0',
    });
    const travelTx = await run(travel, ['buyer', 'platform']);
    expect(await fx.ethereum.isSettled(leg)).toBe(false);
    const travelOut = await fx.ethereum.outgoingMovements(travelTx, leg);
    expect(travelOut.movements.map(({ kind, to, amount }) => ({ kind, to, amount }))).toEqual([
      { kind: 'travel', to: hotel, amount: T },
    ]);
    // 100 000 000 000 − 2 000 000 000 = 98 000 000 000 still held.
    expect(await balances(leg, hotel, feeBefore)).toEqual({
      escrow: 98_000_000_000n,
      payee: T,
      receiver: 0n,
      fee: 0n,
      depositor: 0n,
    });
    const afterTravel = ledgerOf(
      A,
      travelOut.movements.map((movement) => ({ txRef: travelTx, movement })),
    );
    expect(legState({ requiredAmount: A, requiredConfirmations: 3, ledger: afterTravel })).toBe('funded');
    expect(
      reconcileLeg({
        escrowId: leg.escrowId,
        leg: leg.leg,
        chain: 'ETH',
        state: 'funded',
        requiredConfirmations: 3,
        ledger: afterTravel,
        heldBalance: 98_000_000_000n,
      }),
    ).toBeNull();

    // The seller bears the hotel: charge = T. The release is signed for nonce 1, the travel took 0.
    const charged = travelReceiverShare(T, 'seller');
    const plan = planSettlement(leg, A, { kind: 'release' }, fx.feeAddress, { paid: T, charged });
    const release = await fx.ethereum.buildPayout(leg, plan);
    expect(message(release)).toEqual({
      action: PayoutAction.Release,
      recipients: [leg.receiverPayoutAddress],
      amounts: [A.toString(), T.toString()],
      nonce: '1',
    });
    const releaseTx = await run(release, ['seller', 'platform']);
    // Receiver A − fee − T = 100 000 000 000 − 10 000 000 − 2 000 000 000 = 97 990 000 000; fee
    // 10 000 000; depositor 98 000 000 000 − (A − T) = 0: nothing to refund.
    expect(await balances(leg, hotel, feeBefore)).toEqual({
      escrow: 0n,
      payee: T,
      receiver: 97_990_000_000n,
      fee: FEE,
      depositor: 0n,
    });
    const releaseOut = await fx.ethereum.outgoingMovements(releaseTx, leg);
    expect(releaseOut.movements.map(({ kind, to, amount }) => ({ kind, to, amount }))).toEqual([
      { kind: 'payout', to: leg.receiverPayoutAddress, amount: 97_990_000_000n },
      { kind: 'fee', to: fx.feeAddress, amount: FEE },
    ]);
    expect(await fx.ethereum.isSettled(leg)).toBe(true);

    const ledger = [
      ...afterTravel,
      ...ledgerOf(
        0n,
        releaseOut.movements.map((movement) => ({ txRef: releaseTx, movement })),
      ).slice(1),
    ];
    expect(legState({ requiredAmount: A, requiredConfirmations: 3, ledger })).toBe('released');
    expect(
      reconcileLeg({
        escrowId: leg.escrowId,
        leg: leg.leg,
        chain: 'ETH',
        state: 'released',
        requiredConfirmations: 3,
        ledger,
        heldBalance: await fx.balanceOf(leg.tokenAddress as Address, leg.depositAddress),
      }),
    ).toBeNull();
  });

  it('records travel to the depositor as travel, and refunds what is left after two travel payouts', async () => {
    const leg = await fundedUsdcLeg(A);
    const feeBefore = await fx.balanceOf(leg.tokenAddress as Address, fx.feeAddress);
    // The buyer booked the hotel and is reimbursed to its own refund address: still travel, not a refund.
    const reimbursed = await fx.ethereum.buildPayout(
      leg,
      planTravelPayout(leg, leg.depositorRefundAddress, 1_500_000_000n),
    );
    const first = await run(reimbursed, ['seller', 'platform']);
    expect(
      (await fx.ethereum.outgoingMovements(first, leg)).movements.map(({ kind, amount }) => ({
        kind,
        amount,
      })),
    ).toEqual([{ kind: 'travel', amount: 1_500_000_000n }]);
    const agency = getAddress(freshAddress());
    const second = await fx.ethereum.buildPayout(leg, planTravelPayout(leg, agency, 500_000_000n));
    expect(message(second).nonce).toBe('1');
    await run(second, ['buyer', 'seller']);

    const refund = await fx.ethereum.buildPayout(
      leg,
      planSettlement(leg, A, { kind: 'refund' }, fx.feeAddress, { paid: 2_000_000_000n, charged: 0n }),
    );
    expect(message(refund)).toEqual({ action: PayoutAction.Refund, recipients: [], amounts: [], nonce: '2' });
    const refundTx = await run(refund, ['buyer', 'platform']);
    // 100 000 000 000 − 1 500 000 000 − 500 000 000 = 98 000 000 000 back; plus the 1 500 000 000 reimbursed.
    expect(
      (await fx.ethereum.outgoingMovements(refundTx, leg)).movements.map(({ kind, amount }) => ({
        kind,
        amount,
      })),
    ).toEqual([{ kind: 'refund', amount: 98_000_000_000n }]);
    expect(await balances(leg, agency, feeBefore)).toEqual({
      escrow: 0n,
      payee: 500_000_000n,
      receiver: 0n,
      fee: 0n,
      depositor: 99_500_000_000n,
    });
  });

  it('refuses a release signed before travel ran: its nonce is spent', async () => {
    const leg = await fundedUsdcLeg(A + T);
    const early = await fx.ethereum.buildPayout(
      leg,
      planSettlement(leg, A + T, { kind: 'release' }, fx.feeAddress),
    );
    const signatures = [await fx.sign(early, 'buyer'), await fx.sign(early, 'seller')];
    await run(await fx.ethereum.buildPayout(leg, planTravelPayout(leg, freshAddress(), T)), [
      'buyer',
      'seller',
    ]);
    await expect(fx.ethereum.signPayoutTransaction(early, signatures)).rejects.toThrow(
      /CovenantEscrowInvalidNonce\(1, 0\)/,
    );
  });

  it('refuses to build a travel payout to something that is not an Ethereum address', async () => {
    const leg = await fx.openLeg(fx.legTerms());
    for (const payee of ['not-an-address', '0x0000000000000000000000000000000000000000']) {
      await expect(fx.ethereum.buildPayout(leg, planTravelPayout(leg, payee, 1n))).rejects.toBeInstanceOf(
        AppError,
      );
    }
  });
});
