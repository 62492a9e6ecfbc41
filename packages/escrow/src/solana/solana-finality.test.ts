import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meetsPolicy } from '../chain-adapter.js';
import { SOL, type SolanaFixture, startSolanaFixture } from './solana-test-fixture.js';

let fx: SolanaFixture;

beforeAll(async () => {
  // `finalized` trails `confirmed` by 40 slots (0.8 s at 20 ms a slot): long enough to look in between.
  fx = await startSolanaFixture({ finality: 'finalized', confirmations: 1 }, 40);
});

afterAll(async () => {
  await fx?.stop();
});

describe('Solana finality under the finalized policy', () => {
  it('counts a deposit only once its block is finalized: status, tip, block refs and the scan agree', async () => {
    const { leg } = await fx.openLeg('SOL', SOL);
    const from = await fx.solana.currentHeight();
    const txRef = await fx.devnet.faucet.fundSol(leg.depositAddress, SOL);
    const slot = await fx.waitConfirmed(txRef);

    const confirmed = await fx.solana.confirmations(txRef);
    expect(confirmed).toMatchObject({ state: 'included', height: slot, final: false });
    expect(meetsPolicy(fx.solana.confirmationPolicy, confirmed)).toBe(false);
    // The tip the watcher scans to is the finalized slot, still below the deposit's.
    expect(await fx.solana.currentHeight()).toBeLessThan(slot);
    expect(await fx.solana.blockRefAt(slot)).toBeNull();

    await fx.settleSlot(slot);
    const finalized = await fx.solana.confirmations(txRef);
    expect(finalized).toMatchObject({ state: 'included', height: slot, final: true });
    expect(meetsPolicy(fx.solana.confirmationPolicy, finalized)).toBe(true);
    const blockRef = await fx.solana.blockRefAt(slot);
    expect(finalized.state === 'included' && finalized.blockRef).toBe(blockRef);

    const index = fx.indexOf([leg]);
    const { movements } = await fx.solana.scanDeposits(
      { fromHeight: from + 1n, toHeight: await fx.solana.currentHeight() },
      index,
    );
    expect(
      movements.map(({ amount, txRef: ref, height, blockRef: ref2 }) => [amount, ref, height, ref2]),
    ).toEqual([[SOL, txRef, slot, blockRef]]);
  });
});
