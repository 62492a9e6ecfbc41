import { base64, hex } from '@scure/base';
import { Transaction } from '@scure/btc-signer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSettlement } from '../settlement-plan.js';
import type { BitcoinSigningPayload } from './bitcoin-payout.js';
import { type BitcoinFixture, signPsbt, startBitcoinFixture } from './bitcoin-test-fixture.js';
import { parseRawTransaction } from './parse-raw-bitcoin.js';

let fx: BitcoinFixture;

beforeAll(async () => {
  fx = await startBitcoinFixture();
});

afterAll(async () => {
  await fx?.stop();
});

/** A leg of `amount` sats funded by `deposits` and confirmed 2 deep. */
async function fundedLeg(amount: bigint, deposits: bigint[] = [amount]) {
  const opened = await fx.openLeg(amount);
  const outputs = [];
  for (const value of deposits) outputs.push(await fx.deposit(opened.leg.depositAddress, value));
  await fx.node.mine(2);
  return { ...opened, deposits: outputs };
}

const payloadOf = (payout: { signingPayload: unknown }) => payout.signingPayload as BitcoinSigningPayload;

describe('Bitcoin payouts: PSBT, approval, co-signature, broadcast', () => {
  it('releases a leg funded by two deposits: the buyer gets amount − fee − network fee, the fee address amount / 10,000', async () => {
    const { leg, keys, deposits } = await fundedLeg(10_000_000n, [6_000_000n, 4_000_000n]);
    const plan = planSettlement(leg, 10_000_000n, { kind: 'release' }, fx.bitcoin.feeAddress);
    const payout = await fx.bitcoin.buildPayout(leg, plan, [deposits[1]!, deposits[0]!]);
    // The same leg, plan and deposits in any order build the same payout.
    expect(await fx.bitcoin.buildPayout(leg, plan, deposits)).toEqual(payout);

    const payload = payloadOf(payout);
    expect(payload.format).toBe('psbt');
    const psbt = Transaction.fromPSBT(base64.decode(payload.data));
    expect(psbt.id).toBe(payout.payoutRef);
    for (let index = 0; index < psbt.inputsLength; index++) {
      const input = psbt.getInput(index);
      expect(input.witnessUtxo?.amount).toBeGreaterThan(0n);
      expect(hex.encode(input.witnessScript!)).toHaveLength(210);
    }
    // Fee: 10,000,000 / 10,000 = 1,000. Fee rate: the floor, 2 sat/vB (bcoin has no estimate).
    // vsize: non-witness 4 + 1 + 2 × 41 + 1 + 2 × 31 + 4 = 154 bytes; witness 2 + 2 × (1 + 1 +
    // 2 × 74 + 1 + 105) = 514; weight 154 × 4 + 514 = 1,130; vsize ⌈1,130 / 4⌉ = 283; network fee 566.
    // Payout: 10,000,000 − 1,000 − 566 = 9,998,434.
    expect(payload.summary).toEqual({
      outputs: [
        { kind: 'payout', to: leg.receiverPayoutAddress, amount: '9998434' },
        { kind: 'fee', to: fx.bitcoin.feeAddress, amount: '1000' },
      ],
      network_fee: '566',
      refund_network_fee: '0',
      fee_rate_sat_vb: '2',
      dust_folded: [],
    });

    // The seller (the asset leg's depositor) signs in the browser with @scure/btc-signer.
    const approval = signPsbt(payload.data, keys.seller.privateKey);
    const check = await fx.bitcoin.verifyApproval(payout, approval, leg.signers.seller);
    expect(check.valid).toBe(true);
    expect(await fx.bitcoin.verifyApproval(payout, approval, leg.signers.buyer)).toEqual({
      valid: false,
      signer: leg.signers.seller,
      reason: `input 0 has no signature by ${leg.signers.buyer}`,
    });
    if (!check.valid) return;
    const platform = await fx.bitcoin.cosign(payout, leg.platformKeyIndex);
    const signed = await fx.bitcoin.signPayoutTransaction(payout, [
      { signer: 'seller', signature: check.signature },
      { signer: 'platform', signature: platform },
    ]);
    expect(signed.txRef).toBe(payout.payoutRef);
    expect(Transaction.fromRaw(hex.decode(signed.rawTransaction)).vsize).toBeLessThanOrEqual(283);

    expect(await fx.bitcoin.isSettled(leg, deposits)).toBe(false);
    await fx.bitcoin.broadcast(signed);
    // Sent again after a crash: the node knows it, which is no error.
    await fx.bitcoin.broadcast(signed);
    expect(await fx.bitcoin.confirmations(signed.txRef)).toEqual({ state: 'mempool' });
    await fx.node.mine(1);
    expect(await fx.bitcoin.isSettled(leg, deposits)).toBe(true);
    await fx.bitcoin.broadcast(signed);

    const { reverted, movements } = await fx.bitcoin.outgoingMovements(signed.txRef, leg);
    expect(reverted).toBe(false);
    expect(movements.map(({ kind, to, amount, position }) => ({ kind, to, amount, position }))).toEqual([
      { kind: 'payout', to: leg.receiverPayoutAddress, amount: 9_998_434n, position: 0 },
      { kind: 'fee', to: fx.bitcoin.feeAddress, amount: 1_000n, position: 1 },
      { kind: 'network_fee', to: '', amount: 566n, position: 2 },
    ]);
    expect(movements.reduce((sum, movement) => sum + movement.amount, 0n)).toBe(10_000_000n);
    expect(movements[0]!.height).toBe(await fx.bitcoin.currentHeight());
  });

  it('refuses a transaction signed by one key only, at the node and before it', async () => {
    const { leg, keys, opened, deposits } = await fundedLeg(2_000_000n);
    const plan = planSettlement(leg, 2_000_000n, { kind: 'refund' }, fx.bitcoin.feeAddress);
    const payout = await fx.bitcoin.buildPayout(leg, plan, deposits);
    const approval = signPsbt(payloadOf(payout).data, keys.seller.privateKey);
    await expect(
      fx.bitcoin.signPayoutTransaction(payout, [{ signer: 'seller', signature: approval }]),
    ).rejects.toThrow('Input 0 has 1 valid signature(s) of the 2 its custody needs');

    // Forced through by hand: OP_CHECKMULTISIG finds one signature of the two it needs.
    const lonely = Transaction.fromPSBT(base64.decode(approval));
    const signature = lonely.getInput(0).partialSig![0]![1];
    lonely.updateInput(
      0,
      { finalScriptWitness: [new Uint8Array(0), signature, hex.decode(opened.custody.witness_script)] },
      true,
    );
    await expect(
      fx.bitcoin.broadcast({ rawTransaction: hex.encode(lonely.extract()), txRef: lonely.id }),
    ).rejects.toThrow(`the node refused transaction ${payout.payoutRef}`);

    // With the platform's signature it goes through: a refund pays the network fee from the refund.
    const platform = await fx.bitcoin.cosign(payout, leg.platformKeyIndex);
    const signed = await fx.bitcoin.signPayoutTransaction(payout, [
      { signer: 'seller', signature: approval },
      { signer: 'platform', signature: platform },
    ]);
    await fx.bitcoin.broadcast(signed);
    await fx.node.mine(1);
    const { movements } = await fx.bitcoin.outgoingMovements(signed.txRef, leg);
    // One input, one P2WPKH output: weight (4 + 1 + 41 + 1 + 31 + 4) × 4 + 2 + 256 = 586, vsize 147, fee 294.
    expect(movements.map(({ kind, amount }) => [kind, amount])).toEqual([
      ['refund', 1_999_706n],
      ['network_fee', 294n],
    ]);
  });

  it("pays a mediator's split in one transaction: payout, fee and refund, the network fee from the payout", async () => {
    const { leg, keys, deposits } = await fundedLeg(8_000_000n, [8_500_000n]);
    // To the receiver 6,000,000 (fee 600), to the depositor 2,000,000 plus the 500,000 excess.
    const plan = planSettlement(
      leg,
      8_500_000n,
      { kind: 'split', toReceiver: 6_000_000n, toDepositor: 2_000_000n },
      fx.bitcoin.feeAddress,
    );
    const payout = await fx.bitcoin.buildPayout(leg, plan, deposits);
    // One input, three P2WPKH outputs: weight (4 + 1 + 41 + 1 + 3 × 31 + 4) × 4 + 2 + 256 = 834,
    // vsize 209 (208.5), network fee 418. Payout 6,000,000 − 600 − 418 = 5,998,982.
    expect(payloadOf(payout).summary.outputs).toEqual([
      { kind: 'payout', to: leg.receiverPayoutAddress, amount: '5998982' },
      { kind: 'fee', to: fx.bitcoin.feeAddress, amount: '600' },
      { kind: 'refund', to: leg.depositorRefundAddress, amount: '2500000' },
    ]);
    // The buyer (the receiver) approves a split here, with the platform.
    const approval = signPsbt(payloadOf(payout).data, keys.buyer.privateKey);
    const check = await fx.bitcoin.verifyApproval(payout, approval, leg.signers.buyer);
    if (!check.valid) throw new Error(check.reason);
    const signed = await fx.bitcoin.signPayoutTransaction(payout, [
      { signer: 'platform', signature: await fx.bitcoin.cosign(payout, leg.platformKeyIndex) },
      { signer: 'buyer', signature: check.signature },
    ]);
    await fx.bitcoin.broadcast(signed);
    await fx.node.mine(1);
    const { movements } = await fx.bitcoin.outgoingMovements(signed.txRef, leg);
    expect(movements.map(({ kind, amount }) => [kind, amount])).toEqual([
      ['payout', 5_998_982n],
      ['fee', 600n],
      ['refund', 2_500_000n],
      ['network_fee', 418n],
    ]);
    expect(movements.reduce((sum, movement) => sum + movement.amount, 0n)).toBe(8_500_000n);
  });

  it('folds a fee output below the dust limit into the network fee and says so', async () => {
    const { leg, keys, deposits } = await fundedLeg(1_000_000n);
    const plan = planSettlement(leg, 1_000_000n, { kind: 'release' }, fx.bitcoin.feeAddress);
    const payout = await fx.bitcoin.buildPayout(leg, plan, deposits);
    // Fee 1,000,000 / 10,000 = 100 < 294 (P2WPKH dust): folded. One input, one output: vsize 147,
    // 294 at 2 sat/vB; network fee 294 + 100 = 394; payout 1,000,000 − 100 − 294 = 999,606.
    expect(payloadOf(payout).summary).toEqual({
      outputs: [{ kind: 'payout', to: leg.receiverPayoutAddress, amount: '999606' }],
      network_fee: '394',
      refund_network_fee: '0',
      fee_rate_sat_vb: '2',
      dust_folded: [{ kind: 'fee', to: fx.bitcoin.feeAddress, amount: '100' }],
    });
    const approval = signPsbt(payloadOf(payout).data, keys.seller.privateKey);
    const signed = await fx.bitcoin.signPayoutTransaction(payout, [
      { signer: 'seller', signature: approval },
      { signer: 'platform', signature: await fx.bitcoin.cosign(payout, leg.platformKeyIndex) },
    ]);
    await fx.bitcoin.broadcast(signed);
    await expect(fx.bitcoin.bumpFee(payout, signed, 1)).rejects.toThrow(/has no fee output to spend/);
    await fx.node.mine(1);
    const { movements } = await fx.bitcoin.outgoingMovements(signed.txRef, leg);
    expect(movements.map(({ kind, amount }) => [kind, amount])).toEqual([
      ['payout', 999_606n],
      ['network_fee', 394n],
    ]);
  });

  it('refuses a tampered PSBT, an unreadable one and a broken signature', async () => {
    const { leg, keys, deposits } = await fundedLeg(5_000_000n);
    const plan = planSettlement(leg, 5_000_000n, { kind: 'release' }, fx.bitcoin.feeAddress);
    const payout = await fx.bitcoin.buildPayout(leg, plan, deposits);
    const tampered = Transaction.fromPSBT(base64.decode(payloadOf(payout).data));
    tampered.updateOutput(0, { amount: tampered.getOutput(0).amount! - 10_000n });
    const signedTampered = signPsbt(base64.encode(tampered.toPSBT(0)), keys.seller.privateKey);
    const refused = await fx.bitcoin.verifyApproval(payout, signedTampered, leg.signers.seller);
    expect(refused).toMatchObject({ valid: false, reason: expect.stringMatching(/is not the payout's/) });
    expect(await fx.bitcoin.verifyApproval(payout, 'not a psbt', leg.signers.seller)).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/^not a readable PSBT/),
    });
    const good = Transaction.fromPSBT(
      base64.decode(signPsbt(payloadOf(payout).data, keys.seller.privateKey)),
    );
    const [publicKey, signature] = good.getInput(0).partialSig![0]!;
    const flipped = Uint8Array.from(signature);
    flipped[10] = flipped[10]! ^ 1;
    const broken = Transaction.fromPSBT(base64.decode(payloadOf(payout).data));
    broken.updateInput(0, { partialSig: [[publicKey, flipped]] }, true);
    expect(
      await fx.bitcoin.verifyApproval(payout, base64.encode(broken.toPSBT(0)), leg.signers.seller),
    ).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/does not verify/),
    });
  });

  it('pushes a stuck payout with a CPFP child from the fee wallet, adding its own coin when the fee output is too small', async () => {
    const { leg, keys, deposits } = await fundedLeg(3_000_000n);
    // A confirmed coin of the fee wallet, for the child to add.
    const coin = await fx.deposit(fx.bitcoin.feeAddress, 100_000n);
    fx.feeWalletOutpoints.push({ txid: coin.txRef, vout: coin.position });
    await fx.node.mine(1);
    const plan = planSettlement(leg, 3_000_000n, { kind: 'release' }, fx.bitcoin.feeAddress);
    const payout = await fx.bitcoin.buildPayout(leg, plan, deposits);
    const signed = await fx.bitcoin.signPayoutTransaction(payout, [
      { signer: 'seller', signature: signPsbt(payloadOf(payout).data, keys.seller.privateKey) },
      { signer: 'platform', signature: await fx.bitcoin.cosign(payout, leg.platformKeyIndex) },
    ]);
    await fx.bitcoin.broadcast(signed);

    const bump = await fx.bitcoin.bumpFee(payout, signed, 1);
    expect(bump.replaces).toBe(false);
    const child = parseRawTransaction(bump.transaction.rawTransaction);
    // Fee output 300 (3,000,000 / 10,000) is above dust but cannot pay the child: the coin is added.
    expect(child.inputs).toEqual([
      { txid: signed.txRef, vout: 1 },
      { txid: coin.txRef, vout: coin.position },
    ]);
    await fx.bitcoin.broadcast(bump.transaction);
    // Package rate: (parent fee + child fee) / (parent vsize + child vsize) ≥ the 4 sat/vB target
    // (the 2 sat/vB estimate + 1 attempt × the 2 sat/vB floor).
    const parentVsize = BigInt(Transaction.fromRaw(hex.decode(signed.rawTransaction)).vsize);
    const childVsize = BigInt(Transaction.fromRaw(hex.decode(bump.transaction.rawTransaction)).vsize);
    const childFee = 300n + 100_000n - child.outputs[0]!.amount;
    const parentFee = BigInt(payloadOf(payout).summary.network_fee);
    expect((parentFee + childFee) / (parentVsize + childVsize)).toBeGreaterThanOrEqual(4n);
    const [block] = await fx.node.mine(1);
    expect(await fx.bitcoin.confirmations(signed.txRef)).toMatchObject({
      state: 'included',
      blockRef: block,
    });
    expect(await fx.bitcoin.confirmations(bump.transaction.txRef)).toMatchObject({
      state: 'included',
      blockRef: block,
    });
  });
});
