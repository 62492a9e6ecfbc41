import { schema } from '@covenant/db';
import { BITCOIN_ADDRESS_FORMATS, type BitcoinSigningPayload } from '@covenant/escrow/bitcoin';
import { hex } from '@scure/base';
import { p2ms, p2wsh, Transaction } from '@scure/btc-signer';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader } from '../testing/create-test-trader.js';
import { escrowSteps } from '../testing/escrow-steps.js';
import { expectBooksBalance } from '../testing/expect-books-balance.js';
import {
  dealStatus,
  type EscrowDevnet,
  escrowPayoutsOf,
  startEscrowDevnet,
} from '../testing/start-escrow-devnet.js';

// Bitcoin escrow through the whole server against a real bcoin regtest node (deposits count at 2
// blocks; payouts at the 2 sat/vB floor, bcoin having no fee estimate on regtest), next to the
// Ethereum devnet for the USDT leg. One node per file; the parties are reused, so amounts at shared
// addresses (the fee address above all) are compared as differences.
let net: EscrowDevnet;
const steps = escrowSteps(() => net);
const { view, leg, approve, approvePsbt, openedEscrow } = steps;

beforeAll(async () => {
  // A payout spends at most 3 deposit outputs here (500 in a deployment), so a test can pass the cap.
  net = await startEscrowDevnet({ bitcoin: true, bitcoinMaxPayoutInputs: 3 });
});

afterAll(async () => {
  await net?.close();
});

const btc = () => net.bitcoin!;
const regtestFormat = BITCOIN_ADDRESS_FORMATS.regtest;

/** A BTC asset leg (the seller deposits) against a USDT stable leg on Ethereum (the buyer deposits). */
function btcForUsdt(assetAmount: bigint, stableAmount: bigint, fundingDeadlineHours?: number) {
  return {
    assetSymbol: 'BTC',
    assetChain: 'BTC' as const,
    assetAmount,
    stableSymbol: 'USDT',
    stableAmount,
    ...(fundingDeadlineHours === undefined ? {} : { fundingDeadlineHours }),
  };
}

describe('a BTC-for-USDT deal settles through the API on the regtest node', () => {
  // Asset leg 1.23456789 BTC = 123_456_789 sats, deposited by the seller to the leg's P2WSH address.
  //   fee = floor(123_456_789 / 10_000) = 12_345 sats to the BTC fee address
  //   buyer receives 123_456_789 − 12_345 − network fee (read from the PSBT's summary)
  // Stable leg 42,000.000001 USDT = 42_000_000_001 base units, deposited by the buyer on Ethereum.
  //   fee = floor(42_000_000_001 / 10_000) = 4_200_000; seller receives 41_995_800_001.
  const assetAmount = 123_456_789n;
  const stableAmount = 42_000_000_001n;

  it('pays the buyer amount − fee − network fee on Bitcoin and the fee address exactly the fee', async () => {
    const { dealId, deposit } = await openedEscrow(btcForUsdt(assetAmount, stableAmount));
    const feeAddress = btc().info.feeAddress;
    expect(feeAddress).toMatch(/^rb1q/);
    const feeBefore = await btc().holds(feeAddress);

    // The custody shown recomputes the deposit address: 2-of-3 over the sorted keys, as P2WSH.
    const opened = leg(await view(net.seller, dealId), 'asset');
    const custody = opened.custody as {
      witness_script: string;
      public_keys: { buyer: string; seller: string; platform: string };
    };
    expect(custody.public_keys.buyer).toBe(net.buyer.bitcoin!.publicKey);
    expect(custody.public_keys.seller).toBe(net.seller.bitcoin!.publicKey);
    expect(custody.public_keys.platform).toMatch(/^0[23][0-9a-f]{64}$/);
    const sortedKeys = Object.values(custody.public_keys)
      .sort()
      .map((key) => hex.decode(key));
    const script = p2ms(2, sortedKeys);
    expect(custody.witness_script).toBe(hex.encode(script.script));
    expect(p2wsh(script, regtestFormat).address).toBe(deposit.asset);
    expect(deposit.asset).toMatch(/^rb1q/);
    // No timelock in the script: nobody can refund the Bitcoin leg alone after a deadline.
    expect(opened.refund_after).toBeNull();
    expect(leg(await view(net.seller, dealId), 'stable').refund_after).not.toBeNull();

    await btc().pay(deposit.asset, assetAmount);
    await net.pay(net.buyer, 'USDT', deposit.stable, stableAmount);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');

    const signed: BitcoinSigningPayload = await approvePsbt(net.seller, dealId, 'asset');
    // The buyer is not asked to sign the asset leg; the seller signs nothing on the stable leg.
    expect(leg(await view(net.buyer, dealId), 'asset').signing_payload).toBeNull();
    const networkFee = BigInt(signed.summary.network_fee);
    expect(networkFee).toBeGreaterThan(0n);
    expect(signed.summary.fee_rate_sat_vb).toBe('2');
    expect(signed.summary.dust_folded).toEqual([]);
    expect(signed.summary.outputs).toEqual([
      {
        kind: 'payout',
        to: net.buyer.bitcoin!.payoutAddress,
        amount: (assetAmount - 12_345n - networkFee).toString(),
      },
      { kind: 'fee', to: feeAddress, amount: '12345' },
    ]);
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');

    expect(await btc().holds(net.buyer.bitcoin!.payoutAddress)).toBe(assetAmount - 12_345n - networkFee);
    expect((await btc().holds(feeAddress)) - feeBefore).toBe(12_345n);
    expect(await btc().holds(deposit.asset)).toBe(0n);
    expect(await net.balance('USDT', net.seller.payoutAddress)).toBe(41_995_800_001n);
    const done = await view(net.buyer, dealId);
    expect(done.status).toBe('settled');
    const payoutTx = leg(done, 'asset').payout!.transaction_hash!;
    expect(done.settlement_transactions?.buyer).toBe(payoutTx);
    expect(await btc().outputsOf(payoutTx)).toEqual([
      { address: net.buyer.bitcoin!.payoutAddress, amount: assetAmount - 12_345n - networkFee },
      { address: feeAddress, amount: 12_345n },
    ]);
    const entries = await expectBooksBalance(net, dealId);
    expect(
      entries
        .filter((entry) => entry.leg === 'asset' && entry.kind !== 'deposit')
        .map((entry) => [entry.kind, entry.amount])
        .sort(),
    ).toEqual(
      [
        ['fee', '12345'],
        ['network_fee', networkFee.toString()],
        ['payout', (assetAmount - 12_345n - networkFee).toString()],
      ].sort(),
    );
  });
});

/** The Bitcoin leg as the party sees it. */
async function assetLeg(dealId: string, party = net.seller) {
  return leg(await view(party, dealId), 'asset');
}

/** The deal's late-deposit return payout, if there is one. */
async function lateDepositReturnOf(dealId: string) {
  return (await escrowPayoutsOf(net.database, dealId)).find((payout) => payout.source === 'late_deposit');
}

/** Funds the USDT leg in full and runs passes until the deal is escrow_funded. */
async function fundStableAndWait(dealId: string, stableDeposit: string, stableAmount: bigint) {
  await net.pay(net.buyer, 'USDT', stableDeposit, stableAmount);
  await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
}

describe('funding a Bitcoin leg in parts, and money arriving after it settled', () => {
  // Asset leg 0.3 BTC = 30_000_000 sats, paid as 10_000_000 then 20_000_000.
  // Stable leg 9,000 USDT = 9_000_000_000.
  const assetAmount = 30_000_000n;
  const stableAmount = 9_000_000_000n;
  let dealId: string;
  let deposit: { asset: string; stable: string };

  it('shows a mempool deposit as pending, counts two deposits together, and settles spending both', async () => {
    ({ dealId, deposit } = await openedEscrow(btcForUsdt(assetAmount, stableAmount)));
    await btc().pay(deposit.asset, 10_000_000n);
    // Not mined yet: the deal room shows it at once, as pending with no confirmation.
    await net.app.escrow.tick();
    expect(await assetLeg(dealId)).toMatchObject({
      state: 'awaiting_deposit',
      pending: '10000000',
      received: '0',
      confirmations: 0,
    });
    await btc().mine(1);
    await net.app.escrow.tick();
    expect(await assetLeg(dealId)).toMatchObject({ pending: '10000000', received: '0', confirmations: 1 });
    await btc().mine(1);
    await net.app.escrow.tick();
    expect(await assetLeg(dealId)).toMatchObject({
      state: 'partially_funded',
      pending: '0',
      received: '10000000',
    });

    await btc().pay(deposit.asset, 20_000_000n);
    await net.app.escrow.tick();
    expect(await assetLeg(dealId)).toMatchObject({
      state: 'partially_funded',
      pending: '20000000',
      received: '10000000',
    });
    await btc().mine(2);
    await net.app.escrow.tick();
    expect(await assetLeg(dealId)).toMatchObject({ state: 'funded', pending: '0', received: '30000000' });

    await fundStableAndWait(dealId, deposit.stable, stableAmount);
    const signed = await approvePsbt(net.seller, dealId, 'asset');
    // One input per deposit output.
    expect(signed.summary.outputs.map((output) => output.kind)).toEqual(['payout', 'fee']);
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');
    const payoutTx = (await assetLeg(dealId)).payout!.transaction_hash!;
    const raw = await btc().rpc<{ vin: unknown[] }>('getrawtransaction', [payoutTx, true]);
    expect(raw.vin).toHaveLength(2);
    // fee = floor(30_000_000 / 10_000) = 3_000.
    expect(await btc().outputsOf(payoutTx)).toEqual([
      {
        address: net.buyer.bitcoin!.payoutAddress,
        amount: assetAmount - 3_000n - BigInt(signed.summary.network_fee),
      },
      { address: btc().info.feeAddress, amount: 3_000n },
    ]);
    await expectBooksBalance(net, dealId);
  });

  it('returns a deposit reaching the settled leg to the seller, on either party’s approval, minus the network fee', async () => {
    const refundBefore = await btc().holds(net.seller.bitcoin!.refundAddress);
    // 0.05 BTC = 5_000_000 sats paid by mistake after settlement.
    await btc().pay(deposit.asset, 5_000_000n);
    await net.settle(async () => (await assetLeg(dealId, net.buyer)).signing_payload !== null);
    // Either party may approve: its destination is fixed. Both are asked; the buyer does it. The leg
    // still shows its release; what the payload approves is a refund.
    const sellersView = await assetLeg(dealId, net.seller);
    expect(sellersView.signing_payload).not.toBeNull();
    expect([sellersView.payout?.kind, sellersView.signing_kind]).toEqual(['release', 'refund']);
    const signed = await approvePsbt(net.buyer, dealId, 'asset');
    const networkFee = BigInt(signed.summary.network_fee);
    expect(signed.summary.outputs).toEqual([
      { kind: 'refund', to: net.seller.bitcoin!.refundAddress, amount: (5_000_000n - networkFee).toString() },
    ]);
    const lateReturn = () => lateDepositReturnOf(dealId);
    await net.settle(async () => (await lateReturn())?.status === 'confirmed');
    expect((await lateReturn())?.kind).toBe('refund');
    expect((await btc().holds(net.seller.bitcoin!.refundAddress)) - refundBefore).toBe(
      5_000_000n - networkFee,
    );
    expect(await btc().holds(deposit.asset)).toBe(0n);
    expect(await dealStatus(net.database, dealId)).toBe('completed');
    await expectBooksBalance(net, dealId);
  });
});

describe('the funding deadline passes with a partial Bitcoin deposit', () => {
  // Asset leg 0.2 BTC = 20_000_000 sats; the seller pays 7_000_000 and the buyer nothing.
  it('cancels the deal and returns the deposit once the seller approves the refund, minus the network fee', async () => {
    const hour = 3_600_000;
    const { dealId, deposit } = await openedEscrow(btcForUsdt(20_000_000n, 6_000_000_000n, 1));
    const refundBefore = await btc().holds(net.seller.bitcoin!.refundAddress);
    await btc().pay(deposit.asset, 7_000_000n);
    await net.settle(async () => (await assetLeg(dealId)).state === 'partially_funded');

    await net.clock.advance(hour + 1_000);
    await net.app.escrow.tick();
    expect(await dealStatus(net.database, dealId)).toBe('cancelled');
    const cancelled = await view(net.seller, dealId);
    expect(cancelled.status).toBe('refunding');
    expect(leg(cancelled, 'asset').payout).toMatchObject({
      kind: 'refund',
      source: 'cancellation',
      status: 'collecting',
    });
    // Only the depositor approves a cancellation's refund; no on-chain deadline refunds it alone.
    expect((await assetLeg(dealId, net.buyer)).signing_payload).toBeNull();
    await net.clock.advance(100 * hour);
    await net.app.escrow.tick();
    expect(await btc().holds(deposit.asset)).toBe(7_000_000n);

    const signed = await approvePsbt(net.seller, dealId, 'asset');
    const networkFee = BigInt(signed.summary.network_fee);
    expect(signed.summary.outputs).toEqual([
      { kind: 'refund', to: net.seller.bitcoin!.refundAddress, amount: (7_000_000n - networkFee).toString() },
    ]);
    await net.settle(async () => (await view(net.seller, dealId)).status === 'refunded');
    expect((await btc().holds(net.seller.bitcoin!.refundAddress)) - refundBefore).toBe(
      7_000_000n - networkFee,
    );
    expect(await btc().holds(deposit.asset)).toBe(0n);
    expect((await assetLeg(dealId)).state).toBe('refunded');
    await expectBooksBalance(net, dealId);
  });
});

describe('a dispute decided as a split of the Bitcoin leg', () => {
  // Asset leg 2 BTC = 200_000_000 sats (seller deposits): buyer 150_000_000, seller back 50_000_000.
  //   fee on the buyer's share only: floor(150_000_000 / 10_000) = 15_000
  //   buyer receives 150_000_000 − 15_000 − network fee (the payout output pays it); seller 50_000_000 whole.
  // Stable leg 130,000.000001 USDT = 130_000_000_001: seller 100_000_000_001, buyer back 30_000_000_000.
  //   fee = floor(100_000_000_001 / 10_000) = 10_000_000; seller receives 99_990_000_001.
  it('pays each party its share, the fee and the network fee out of the payout, once either approves', async () => {
    const { dealId, deposit } = await openedEscrow(btcForUsdt(200_000_000n, 130_000_000_001n));
    const before = {
      buyer: await btc().holds(net.buyer.bitcoin!.payoutAddress),
      seller: await btc().holds(net.seller.bitcoin!.refundAddress),
      fee: await btc().holds(btc().info.feeAddress),
      sellerUsdt: await net.balance('USDT', net.seller.payoutAddress),
      buyerUsdt: await net.balance('USDT', net.buyer.wallet),
    };
    await btc().pay(deposit.asset, 200_000_000n);
    await fundStableAndWait(dealId, deposit.stable, 130_000_000_001n);

    const opened = await net.call('POST', `/api/v1/deals/${dealId}/disputes`, net.buyer.token, {
      reason: 'The seller asks for more than the agreed price before approving.',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const mediator = await createTestTrader(net.app, { roles: ['mediator'] });
    const disputeId = opened.json().id;
    expect(
      (await net.call('POST', `/api/v1/staff/disputes/${disputeId}/assign`, mediator.token)).statusCode,
    ).toBe(200);
    const decided = await net.call('POST', `/api/v1/staff/disputes/${disputeId}/decision`, mediator.token, {
      decision: 'split',
      split: {
        asset: { buyer: '150000000', seller: '50000000' },
        stable: { buyer: '30000000000', seller: '100000000001' },
      },
      rationale: 'Both parties performed in part; the evidence supports three quarters of the asset.',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    await net.app.escrow.tick();
    expect((await assetLeg(dealId, net.buyer)).payout).toMatchObject({
      kind: 'split',
      source: 'mediator',
      status: 'collecting',
    });
    const signed = await approvePsbt(net.seller, dealId, 'asset');
    const networkFee = BigInt(signed.summary.network_fee);
    expect(signed.summary.outputs).toEqual([
      {
        kind: 'payout',
        to: net.buyer.bitcoin!.payoutAddress,
        amount: (150_000_000n - 15_000n - networkFee).toString(),
      },
      { kind: 'fee', to: btc().info.feeAddress, amount: '15000' },
      { kind: 'refund', to: net.seller.bitcoin!.refundAddress, amount: '50000000' },
    ]);
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => (await view(net.buyer, dealId)).status === 'settled');

    expect((await btc().holds(net.buyer.bitcoin!.payoutAddress)) - before.buyer).toBe(
      150_000_000n - 15_000n - networkFee,
    );
    expect((await btc().holds(net.seller.bitcoin!.refundAddress)) - before.seller).toBe(50_000_000n);
    expect((await btc().holds(btc().info.feeAddress)) - before.fee).toBe(15_000n);
    expect((await net.balance('USDT', net.seller.payoutAddress)) - before.sellerUsdt).toBe(99_990_000_001n);
    expect((await net.balance('USDT', net.buyer.wallet)) - before.buyerUsdt).toBe(30_000_000_000n);
    await expectBooksBalance(net, dealId);
  });
});

describe('a reorg of a Bitcoin deposit', () => {
  it('stops counting a deposit whose block left the best chain, and counts it again when the block is back', async () => {
    const { dealId, deposit } = await openedEscrow(btcForUsdt(15_000_000n, 4_500_000_000n));
    const txid = await btc().pay(deposit.asset, 15_000_000n);
    const [blockHash] = await btc().mine(1);
    await net.app.escrow.tick();
    expect(await assetLeg(dealId)).toMatchObject({ pending: '15000000', confirmations: 1 });
    const rawBlock = await btc().rpc<string>('getblock', [blockHash, 0]);
    const entry = async () =>
      (
        await net.database.db
          .select()
          .from(schema.escrowLedgerEntries)
          .where(eq(schema.escrowLedgerEntries.txRef, txid))
      )[0]!;
    expect(await entry()).toMatchObject({ status: 'pending', blockRef: blockHash });

    // The block leaves the best chain; its transaction goes back to the mempool.
    await btc().rpc('invalidateblock', [blockHash]);
    await net.app.escrow.tick();
    expect(await entry()).toMatchObject({ status: 'reorged' });
    expect(await assetLeg(dealId)).toMatchObject({
      state: 'awaiting_deposit',
      pending: '0',
      received: '0',
      confirmations: 0,
    });
    // Still in the mempool: seen again as a pending deposit with no block.
    await net.app.escrow.tick();
    expect(await entry()).toMatchObject({ status: 'pending', blockRef: null });

    // The block comes back (reconsiderblock, and the node is given it again): so does the deposit.
    await btc().rpc('reconsiderblock', [blockHash]);
    await btc().rpc('submitblock', [rawBlock]);
    await net.app.escrow.tick();
    expect(await entry()).toMatchObject({ status: 'pending', blockRef: blockHash, confirmations: 1 });
    await btc().mine(1);
    await net.app.escrow.tick();
    expect(await entry()).toMatchObject({ status: 'confirmed', blockRef: blockHash });
    expect(await assetLeg(dealId)).toMatchObject({ state: 'funded', received: '15000000', pending: '0' });
  });
});

describe('a stuck Bitcoin payout', () => {
  // Asset leg 0.5 BTC = 50_000_000 sats: fee floor(50_000_000 / 10_000) = 5_000 sats, enough for a child.
  it('is pushed by a child spending its fee output (CPFP), and both confirm', async () => {
    const assetAmount = 50_000_000n;
    const { dealId, deposit } = await openedEscrow(btcForUsdt(assetAmount, 15_000_000_000n));
    const feeAddress = btc().info.feeAddress;
    const feeBefore = await btc().holds(feeAddress);
    await btc().pay(deposit.asset, assetAmount);
    await fundStableAndWait(dealId, deposit.stable, 15_000_000_000n);
    const signed = await approvePsbt(net.seller, dealId, 'asset');
    await approve(net.buyer, dealId, 'stable');
    // Sent, and left in the mempool: no Bitcoin block is mined.
    await net.app.escrow.tick();
    const payoutRow = async () =>
      (
        await net.database.db
          .select()
          .from(schema.escrowPayouts)
          .where(eq(schema.escrowPayouts.payoutRef, (await assetLeg(dealId)).payout!.transaction_hash!))
      )[0]!;
    const sent = await payoutRow();
    expect(sent.status).toBe('submitted');
    expect(await btc().mempool()).toContain(sent.txRef);
    await net.app.escrow.tick();
    expect((await payoutRow()).feeBumpTransactions).toEqual([]);

    // ESCROW_FEE_BUMP_AFTER_SECONDS (180) pass: the platform alone adds a child paying for both.
    await net.clock.advance(181_000);
    await net.app.escrow.tick();
    const bumped = await payoutRow();
    expect(bumped.txRef).toBe(sent.txRef);
    expect(bumped.feeBumpTransactions).toHaveLength(1);
    const child = bumped.feeBumpTransactions[0]!;
    expect(await btc().mempool()).toEqual(expect.arrayContaining([sent.txRef, child.txRef]));
    const childOutputs = await btc().outputsOf(child.txRef);
    expect(childOutputs).toHaveLength(1);
    expect(childOutputs[0]!.address).toBe(feeAddress);
    const childFee = 5_000n - childOutputs[0]!.amount;
    expect(childFee).toBeGreaterThan(0n);

    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');
    for (const txid of [sent.txRef!, child.txRef]) {
      const mined = await btc().rpc<{ confirmations?: number }>('getrawtransaction', [txid, true]);
      expect(mined.confirmations).toBeGreaterThanOrEqual(2);
    }
    // The fee address got the 5_000 sats fee and paid the child's network fee out of it.
    expect((await btc().holds(feeAddress)) - feeBefore).toBe(5_000n - childFee);
    expect(await btc().outputsOf(sent.txRef!)).toEqual([
      {
        address: net.buyer.bitcoin!.payoutAddress,
        amount: assetAmount - 5_000n - BigInt(signed.summary.network_fee),
      },
      { address: feeAddress, amount: 5_000n },
    ]);
    await expectBooksBalance(net, dealId);
  });
});

describe('buyer and seller spending a leg without the platform', () => {
  // ADR 019's accepted weakness: the two parties' keys are 2 of 3. Here they sign a transaction of
  // their own, without the fee, while the engine's payout waits for the other leg's approval.
  it('leaves the engine running and alerts staff when the payout it built can no longer be sent', async () => {
    const assetAmount = 40_000_000n;
    const { dealId, deposit } = await openedEscrow(btcForUsdt(assetAmount, 12_000_000_000n));
    const txid = await btc().pay(deposit.asset, assetAmount);
    await fundStableAndWait(dealId, deposit.stable, 12_000_000_000n);
    await approvePsbt(net.seller, dealId, 'asset');

    const custody = (await assetLeg(dealId)).custody as { witness_script: string };
    const vout = (await btc().outputsOf(txid)).findIndex((output) => output.address === deposit.asset);
    const witnessScript = hex.decode(custody.witness_script);
    const own = new Transaction();
    own.addInput({
      txid,
      index: vout,
      witnessUtxo: { script: p2wsh({ type: 'wsh', script: witnessScript }).script, amount: assetAmount },
      witnessScript,
    });
    own.addOutputAddress(net.buyer.bitcoin!.payoutAddress, assetAmount - 1_000n, regtestFormat);
    own.signIdx(net.buyer.bitcoin!.privateKey, 0);
    own.signIdx(net.seller.bitcoin!.privateKey, 0);
    own.finalize();
    await btc().rpc('sendrawtransaction', [own.hex]);
    await btc().mine(2);

    // The buyer approves the USDT leg: the settlement goes, and the Bitcoin payout cannot.
    await approve(net.buyer, dealId, 'stable');
    await net.app.escrow.tick();
    await net.mine(2);
    await net.app.escrow.tick();
    expect(leg(await view(net.buyer, dealId), 'stable').payout?.status).toBe('confirmed');
    expect((await assetLeg(dealId)).payout?.status).toBe('failed');
    const alerts = await net.database.db.select().from(schema.staffAlerts);
    expect(alerts).toEqual([expect.objectContaining({ kind: 'leg_spent_elsewhere' })]);
    await net.database.db.delete(schema.staffAlerts);
  });
});

describe('a stuck Bitcoin payout too small to bump', () => {
  // Asset leg 0.02 BTC = 2_000_000 sats: fee floor(2_000_000 / 10_000) = 200 sats, below the 294-sat
  // P2WPKH dust limit, so it is folded into the network fee and there is no fee output for a child.
  it('alerts staff once it has waited past the bump delay, and settles when mined', async () => {
    const assetAmount = 2_000_000n;
    const { dealId, deposit } = await openedEscrow(btcForUsdt(assetAmount, 600_000_000n));
    await btc().pay(deposit.asset, assetAmount);
    await fundStableAndWait(dealId, deposit.stable, 600_000_000n);
    const signed = await approvePsbt(net.seller, dealId, 'asset');
    expect(signed.summary.dust_folded).toEqual([{ kind: 'fee', to: btc().info.feeAddress, amount: '200' }]);
    await approve(net.buyer, dealId, 'stable');
    await net.app.escrow.tick();
    expect((await assetLeg(dealId)).payout?.status).toBe('submitted');

    await net.clock.advance(181_000);
    await net.app.escrow.tick();
    const alerts = await net.database.db.select().from(schema.staffAlerts);
    expect(alerts).toEqual([
      expect.objectContaining({
        kind: 'payout_stuck',
        details: expect.objectContaining({ leg: 'asset', error: expect.stringMatching(/no fee output/) }),
      }),
    ]);

    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');
    // Still the one alert (raised once while open); staff resolve it once the payout is mined.
    expect(await net.database.db.select().from(schema.staffAlerts)).toHaveLength(1);
    await net.database.db.delete(schema.staffAlerts);
    const payoutTx = (await assetLeg(dealId)).payout!.transaction_hash!;
    // The buyer gets 2_000_000 − network fee, the 200-sat fee included in it.
    expect(await btc().outputsOf(payoutTx)).toEqual([
      { address: net.buyer.bitcoin!.payoutAddress, amount: assetAmount - BigInt(signed.summary.network_fee) },
    ]);
    await expectBooksBalance(net, dealId);
  });
});

describe('an over-funded Bitcoin leg', () => {
  // Asset leg 0.1 BTC = 10_000_000 sats, paid as one deposit of 12_500_007 (2_500_007 over).
  //   fee = floor(10_000_000 / 10_000) = 1_000; the buyer gets 10_000_000 − 1_000 − network fee;
  //   the 2_500_007 over go back to the seller's refund address in the same transaction.
  it('releases the amount and returns the excess to the seller in the one payout transaction', async () => {
    const { dealId, deposit } = await openedEscrow(btcForUsdt(10_000_000n, 3_000_000_000n));
    const refundBefore = await btc().holds(net.seller.bitcoin!.refundAddress);
    // Paid from the regtest node's dev wallet through the API, as the deal room's dev button does.
    const funded = await net.call('POST', '/api/v1/dev/fund', net.seller.token, {
      deal_id: dealId,
      leg: 'asset',
      amount: '12500007',
    });
    expect(funded.statusCode, funded.body).toBe(200);
    expect(funded.json()).toMatchObject({ deposit_address: deposit.asset, amount: '12500007' });
    await fundStableAndWait(dealId, deposit.stable, 3_000_000_000n);
    expect((await assetLeg(dealId)).received).toBe('12500007');
    const signed = await approvePsbt(net.seller, dealId, 'asset');
    const networkFee = BigInt(signed.summary.network_fee);
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');
    const payoutTx = (await assetLeg(dealId)).payout!.transaction_hash!;
    expect(await btc().outputsOf(payoutTx)).toEqual([
      { address: net.buyer.bitcoin!.payoutAddress, amount: 10_000_000n - 1_000n - networkFee },
      { address: btc().info.feeAddress, amount: 1_000n },
      { address: net.seller.bitcoin!.refundAddress, amount: 2_500_007n },
    ]);
    expect((await btc().holds(net.seller.bitcoin!.refundAddress)) - refundBefore).toBe(2_500_007n);
    await expectBooksBalance(net, dealId);
  });
});

describe('a Bitcoin leg paid in more outputs than one payout spends', () => {
  // Asset leg 1 BTC = 100_000_000 sats, paid as five outputs: 50_000_000, 30_000_000, 25_000_000,
  // 1_000_000 and 1_000_000 (107_000_000, 7_000_000 over), with a cap of 3 inputs per payout.
  //   The release spends the three largest (105_000_000): the buyer gets 100_000_000 − fee − network
  //   fee, fee = floor(100_000_000 / 10_000) = 10_000, and 5_000_000 go back to the seller with it.
  //   The two 1_000_000 outputs stay on the leg and go back to the seller afterwards, as a late
  //   deposit either party approves: 2_000_000 − its own network fee.
  it('releases from the largest outputs and returns the rest to the depositor afterwards', async () => {
    const { dealId, deposit } = await openedEscrow(btcForUsdt(100_000_000n, 6_000_000_000n));
    const refundBefore = await btc().holds(net.seller.bitcoin!.refundAddress);
    for (const sats of [1_000_000n, 50_000_000n, 1_000_000n, 30_000_000n, 25_000_000n]) {
      await btc().pay(deposit.asset, sats);
    }
    await btc().mine(2);
    await fundStableAndWait(dealId, deposit.stable, 6_000_000_000n);
    expect((await assetLeg(dealId)).received).toBe('107000000');

    const signed = await approvePsbt(net.seller, dealId, 'asset');
    const networkFee = BigInt(signed.summary.network_fee);
    expect(signed.summary.outputs).toEqual([
      {
        kind: 'payout',
        to: net.buyer.bitcoin!.payoutAddress,
        amount: (100_000_000n - 10_000n - networkFee).toString(),
      },
      { kind: 'fee', to: btc().info.feeAddress, amount: '10000' },
      { kind: 'refund', to: net.seller.bitcoin!.refundAddress, amount: '5000000' },
    ]);
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');
    const payoutTx = (await assetLeg(dealId)).payout!.transaction_hash!;
    const raw = await btc().rpc<{ vin: unknown[] }>('getrawtransaction', [payoutTx, true]);
    expect(raw.vin).toHaveLength(3);
    expect(await btc().holds(deposit.asset)).toBe(2_000_000n);

    // What the payout left is the seller's again, on either party's approval.
    await net.settle(async () => (await assetLeg(dealId, net.buyer)).signing_payload !== null);
    const returned = await approvePsbt(net.buyer, dealId, 'asset');
    const returnFee = BigInt(returned.summary.network_fee);
    expect(returned.summary.outputs).toEqual([
      { kind: 'refund', to: net.seller.bitcoin!.refundAddress, amount: (2_000_000n - returnFee).toString() },
    ]);
    const lateReturn = () => lateDepositReturnOf(dealId);
    await net.settle(async () => (await lateReturn())?.status === 'confirmed');
    expect(await btc().holds(deposit.asset)).toBe(0n);
    expect((await btc().holds(net.seller.bitcoin!.refundAddress)) - refundBefore).toBe(
      5_000_000n + 2_000_000n - returnFee,
    );
    expect(await dealStatus(net.database, dealId)).toBe('completed');
    await expectBooksBalance(net, dealId);
  });
});

describe('a Bitcoin leg over-funded in several outputs', () => {
  // Asset leg 0.1 BTC = 10_000_000 sats, paid as 8_000_000 + 2_000_000 + 2_500_007 (2_500_007 over).
  //   fee = floor(10_000_000 / 10_000) = 1_000; payout + fee = 10_000_000 needs the two largest,
  //   8_000_000 + 2_500_007; the 2_000_000 output is the depositor's extra input, paid by the refund.
  //   vsize (3 P2WPKH outputs): 3 inputs 419 vB (weight 42 + 3 × 420 + 3 × 124 = 1_674), 2 inputs
  //   314 vB (1_254); at the 2 sat/vB floor the whole network fee is 838, the buyer pays 628 of it
  //   and the seller's refund the other 105 × 2 = 210. The buyer gets 10_000_000 − 1_000 − 628 =
  //   9_998_372 (9_998_162 if it paid all 838), the seller 2_500_007 − 210 = 2_499_797.
  it('charges the network fee of the deposit outputs the amount did not need to the seller’s refund', async () => {
    const { dealId, deposit } = await openedEscrow(btcForUsdt(10_000_000n, 3_000_000_000n));
    const refundBefore = await btc().holds(net.seller.bitcoin!.refundAddress);
    for (const sats of [8_000_000n, 2_000_000n, 2_500_007n]) await btc().pay(deposit.asset, sats);
    await btc().mine(2);
    await fundStableAndWait(dealId, deposit.stable, 3_000_000_000n);
    expect((await assetLeg(dealId)).received).toBe('12500007');

    const signed = await approvePsbt(net.seller, dealId, 'asset');
    expect(signed.summary).toEqual({
      outputs: [
        { kind: 'payout', to: net.buyer.bitcoin!.payoutAddress, amount: '9998372' },
        { kind: 'fee', to: btc().info.feeAddress, amount: '1000' },
        { kind: 'refund', to: net.seller.bitcoin!.refundAddress, amount: '2499797' },
      ],
      network_fee: '838',
      refund_network_fee: '210',
      fee_rate_sat_vb: '2',
      dust_folded: [],
    });
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');
    // The deal room says, once settled, who paid what of the network fee.
    const settled = (await assetLeg(dealId)).payout!;
    expect(settled).toMatchObject({ network_fee: '838', refund_network_fee: '210' });
    const payoutTx = settled.transaction_hash!;
    const raw = await btc().rpc<{ vin: unknown[] }>('getrawtransaction', [payoutTx, true]);
    expect(raw.vin).toHaveLength(3);
    expect(await btc().outputsOf(payoutTx)).toEqual([
      { address: net.buyer.bitcoin!.payoutAddress, amount: 9_998_372n },
      { address: btc().info.feeAddress, amount: 1_000n },
      { address: net.seller.bitcoin!.refundAddress, amount: 2_499_797n },
    ]);
    expect((await btc().holds(net.seller.bitcoin!.refundAddress)) - refundBefore).toBe(2_499_797n);
    expect(await btc().holds(deposit.asset)).toBe(0n);
    const entries = await expectBooksBalance(net, dealId);
    expect(
      entries
        .filter((entry) => entry.leg === 'asset' && entry.kind !== 'deposit')
        .map((entry) => [entry.kind, entry.amount])
        .sort(),
    ).toEqual(
      [
        ['fee', '1000'],
        ['network_fee', '838'],
        ['payout', '9998372'],
        ['refund', '2499797'],
      ].sort(),
    );
  });
});

// A Bitcoin payout's fee rate is signed into it. When the node's minimum relay fee rises above it
// while the approvals are collected (as a filling mempool raises Bitcoin Core's), the node would
// refuse it for good: it is built again at the rate the node relays now and approved again, and
// nothing of the settlement goes meanwhile.
describe('a Bitcoin payout whose fee rate falls below what the node relays', () => {
  // Asset leg 0.2 BTC = 20_000_000 sats (the seller deposits): fee floor(20_000_000 / 10_000) = 2_000.
  // Stable leg 6,000 USDT = 6_000_000_000 on Ethereum (the buyer deposits).
  const assetAmount = 20_000_000n;
  const stableAmount = 6_000_000_000n;

  it('is built again at the node’s minimum and approved again; nothing goes before, all of it after', async () => {
    const { dealId, deposit } = await openedEscrow(btcForUsdt(assetAmount, stableAmount));
    await btc().pay(deposit.asset, assetAmount);
    await btc().mine(2);
    await fundStableAndWait(dealId, deposit.stable, stableAmount);

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
