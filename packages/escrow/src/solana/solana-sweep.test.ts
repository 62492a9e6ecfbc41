import { randomUUID } from 'node:crypto';
import { base64 } from '@scure/base';
import { getTransactionDecoder } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweepContext } from '../escrow-chain-adapter.js';
import { planSettlement } from '../settlement-plan.js';
import { describeRpcError } from './solana-rpc.js';
import { SOL, type SolanaFixture, signPayout, startSolanaFixture } from './solana-test-fixture.js';

let fx: SolanaFixture;
let systemRent: bigint;

beforeAll(async () => {
  fx = await startSolanaFixture();
  systemRent = await fx.rpc.getMinimumBalanceForRentExemption(0n).send();
});

afterAll(async () => {
  await fx?.stop();
});

/** A SOL leg funded with `amount`, released (its wSOL account closed) and confirmed. */
async function settledSolLeg(amount: bigint) {
  const opened = await fx.openLeg('SOL', amount);
  const { leg, keys } = opened;
  await fx.waitConfirmed(await fx.devnet.faucet.fundSol(leg.depositAddress, amount));
  const payout = await fx.solana.buildPayout(
    leg,
    planSettlement(leg, amount, { kind: 'release' }, fx.feeAddress),
  );
  const { txRef } = await fx.solana.submit(payout, [
    { signer: 'seller', signature: signPayout(payout, keys.seller.privateKey) },
    { signer: 'platform', signature: await fx.solana.cosign(payout, leg.platformKeyIndex) },
  ]);
  await fx.waitConfirmed(txRef);
  expect(await fx.solana.isSettled(leg)).toBe(true);
  expect(await fx.lamportsOf(leg.depositAddress)).toBe(0n);
  const sweep: SweepContext = {
    dealId: opened.terms.dealId,
    leg: leg.leg,
    depositorRefundAddress: leg.depositorRefundAddress,
  };
  return { ...opened, payoutTxRef: txRef, sweep };
}

/** Whether the chain refuses a payment (the reason), or `accepted`. */
const outcome = (sent: Promise<unknown>) =>
  sent.then(
    () => 'accepted',
    (error: unknown) => describeRpcError(error),
  );

describe('Solana sweep: lamports paid to a settled SOL leg go back to its depositor', () => {
  it('returns every lamport of a late payment to the (empty) refund address, the relayer paying the fee', async () => {
    const { leg, sweep, payoutTxRef } = await settledSolLeg(SOL);
    const late = 3_000_000n;
    const lateRef = await fx.devnet.faucet.fundSol(leg.depositAddress, late);
    await fx.waitConfirmed(lateRef);
    expect(await fx.lamportsOf(leg.depositAddress)).toBe(late);
    // The depositor's refund address is a fresh wallet with no account yet.
    expect(await fx.lamportsOf(leg.depositorRefundAddress)).toBe(0n);
    const relayerBefore = await fx.lamportsOf(fx.relayer);

    const signed = await fx.solana.signSweep!(leg.depositAddress, sweep);
    // The transaction is paid and signed by the relayer (its signature is the id) and by the
    // address's own key, and moves exactly the late payment.
    const transaction = getTransactionDecoder().decode(base64.decode(signed.rawTransaction));
    expect(Object.keys(transaction.signatures)).toEqual([fx.relayer, leg.depositAddress]);
    await fx.solana.broadcast(signed);
    const slot = await fx.waitConfirmed(signed.txRef);
    // Sent again (a crash between send and record): the node has it, which is no error.
    await fx.solana.broadcast(signed);

    expect(await fx.lamportsOf(leg.depositorRefundAddress)).toBe(late);
    expect(await fx.lamportsOf(leg.depositAddress)).toBe(0n);
    const fee = await fx.feePaid(signed.txRef);
    expect(fee).toBe(10_000n); // 2 signatures × 5,000 lamports
    expect((await fx.lamportsOf(fx.relayer)) - relayerBefore).toBe(-fee);
    expect(await fx.solana.isSettled(leg)).toBe(true);

    const { reverted, movements } = await fx.solana.outgoingMovements(signed.txRef, leg);
    expect(reverted).toBe(false);
    expect(movements).toEqual([
      {
        kind: 'sweep',
        to: leg.depositorRefundAddress,
        amount: late,
        position: 0,
        blockRef: await fx.solana.blockRefAt(slot),
        height: slot,
      },
    ]);
    // The payout's own movements stay what they were: a sweep is told apart by its source.
    const payout = await fx.solana.outgoingMovements(payoutTxRef, leg);
    expect(payout.movements.map(({ kind, amount }) => [kind, amount])).toEqual([
      ['payout', SOL - SOL / 10_000n],
      ['fee', SOL / 10_000n],
    ]);
    // The sweep is no deposit of the leg: its block yields no movement.
    await fx.settleSlot(slot);
    const scanned = await fx.solana.scanDeposits({ fromHeight: slot, toHeight: slot }, fx.indexOf([leg]));
    expect(scanned.movements).toEqual([]);

    // Nothing left: a second sweep is refused, saying so.
    await expect(fx.solana.signSweep!(leg.depositAddress, sweep)).rejects.toThrow(
      `nothing to sweep at ${leg.depositAddress} (deal ${sweep.dealId}'s asset leg): no lamports there`,
    );
  });

  it('returns exactly the rent-exempt minimum to an empty refund address; less cannot even reach the closed address', async () => {
    const { leg, sweep } = await settledSolLeg(SOL);
    expect(systemRent).toBe(890_880n);
    // Solana refuses a transfer that would leave a new account under the rent-exempt minimum: a
    // smaller late payment never lands at the closed address, so there is nothing to return.
    const tooSmall = await outcome(fx.devnet.faucet.fundSol(leg.depositAddress, systemRent - 1n));
    expect(tooSmall).toMatch(/InsufficientFundsForRent/);
    await expect(fx.solana.signSweep!(leg.depositAddress, sweep)).rejects.toThrow(/nothing to sweep/);
    // Whatever did land is at least that minimum, so it always reaches an empty refund address.
    await fx.waitConfirmed(await fx.devnet.faucet.fundSol(leg.depositAddress, systemRent));
    const signed = await fx.solana.signSweep!(leg.depositAddress, sweep);
    await fx.solana.broadcast(signed);
    await fx.waitConfirmed(signed.txRef);
    expect(await fx.lamportsOf(leg.depositorRefundAddress)).toBe(systemRent);
    const { movements } = await fx.solana.outgoingMovements(signed.txRef, leg);
    expect(movements.map(({ kind, to, amount }) => [kind, to, amount])).toEqual([
      ['sweep', leg.depositorRefundAddress, systemRent],
    ]);
  });

  it('sweeps to a refund address that already holds lamports, adding to them', async () => {
    const { leg, sweep } = await settledSolLeg(SOL);
    await fx.waitConfirmed(await fx.devnet.faucet.fundSol(leg.depositorRefundAddress, SOL));
    await fx.waitConfirmed(await fx.devnet.faucet.fundSol(leg.depositAddress, 1_234_567n));
    await fx.waitConfirmed(await fx.devnet.faucet.fundSol(leg.depositAddress, 7_654_321n));
    const signed = await fx.solana.signSweep!(leg.depositAddress, sweep);
    await fx.solana.broadcast(signed);
    await fx.waitConfirmed(signed.txRef);
    // Both late payments, in one transfer.
    expect(await fx.lamportsOf(leg.depositorRefundAddress)).toBe(SOL + 8_888_888n);
    expect(await fx.lamportsOf(leg.depositAddress)).toBe(0n);
  });

  it('refuses, saying why: nothing paid, the wSOL account still open, a token leg, a wrong deal or leg, a bad refund address', async () => {
    const { leg, sweep } = await settledSolLeg(SOL);
    const where = `deal ${sweep.dealId}'s asset leg`;
    // Settled and nothing paid since.
    await expect(fx.solana.signSweep!(leg.depositAddress, sweep)).rejects.toThrow(
      `nothing to sweep at ${leg.depositAddress} (${where}): no lamports there`,
    );
    // Another deal, or the other leg name, derives another address.
    for (const wrong of [
      { ...sweep, dealId: randomUUID() },
      { ...sweep, leg: 'stable' as const },
    ]) {
      await expect(fx.solana.signSweep!(leg.depositAddress, wrong)).rejects.toThrow(
        new RegExp(
          `cannot sweep ${leg.depositAddress}: it is not deal .* deposit address .*wrong deal id or leg`,
        ),
      );
    }
    await expect(
      fx.solana.signSweep!(leg.depositAddress, { ...sweep, depositorRefundAddress: 'not-an-address' }),
    ).rejects.toThrow(`cannot sweep ${where}: the refund address not-an-address is not a Solana address`);

    // An open SOL leg: what it holds leaves by a payout.
    const open = await fx.openLeg('SOL', SOL);
    await fx.waitConfirmed(await fx.devnet.faucet.fundSol(open.leg.depositAddress, SOL));
    await expect(
      fx.solana.signSweep!(open.leg.depositAddress, {
        dealId: open.terms.dealId,
        leg: open.leg.leg,
        depositorRefundAddress: open.leg.depositorRefundAddress,
      }),
    ).rejects.toThrow(/its wSOL account is still open, so what it holds leaves by a payout, not a sweep/);

    // A token leg: its account is an associated token address, which no key signs for.
    const usdc = await fx.openLeg('USDC', 1_000_000n);
    await expect(
      fx.solana.signSweep!(usdc.leg.depositAddress, {
        dealId: usdc.terms.dealId,
        leg: usdc.leg.leg,
        depositorRefundAddress: usdc.leg.depositorRefundAddress,
      }),
    ).rejects.toThrow(
      `nothing to sweep at ${usdc.leg.depositAddress}: deal ${usdc.terms.dealId}'s stable leg is a token leg (the multisig's associated account of ${fx.devnet.mints.USDC})`,
    );
    expect(await fx.lamportsOf(open.leg.depositAddress)).toBeGreaterThan(SOL);
  });
});
