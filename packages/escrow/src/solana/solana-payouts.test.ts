import { base58, hex } from '@scure/base';
import { address } from '@solana/kit';
import { getTokenSize, getTransferCheckedInstruction } from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayoutExpiredError } from '../escrow-chain-adapter.js';
import { planSettlement } from '../settlement-plan.js';
import { kitSigner } from './open-solana-leg.js';
import { associatedTokenAccount } from './solana-leg-accounts.js';
import type { SolanaSigningPayload } from './solana-payout.js';
import { describeRpcError } from './solana-rpc.js';
import { SOL, type SolanaFixture, signPayout, startSolanaFixture } from './solana-test-fixture.js';

let fx: SolanaFixture;
let tokenRent: bigint;

beforeAll(async () => {
  fx = await startSolanaFixture();
  tokenRent = await fx.rpc.getMinimumBalanceForRentExemption(BigInt(getTokenSize())).send();
});

afterAll(async () => {
  await fx?.stop();
});

/** A USDC (stable) or SOL (asset) leg, funded with `deposits` and confirmed. */
async function fundedLeg(symbol: 'USDC' | 'SOL', amount: bigint, deposits: bigint[] = [amount]) {
  const opened = await fx.openLeg(symbol, amount);
  for (const value of deposits) {
    const txRef =
      symbol === 'SOL'
        ? await fx.devnet.faucet.fundSol(opened.leg.depositAddress, value)
        : await fx.devnet.faucet.fundToken(opened.leg.depositAddress, fx.devnet.mints.USDC, value);
    await fx.waitConfirmed(txRef);
  }
  return opened;
}

const payloadOf = (payout: { signingPayload: unknown }) => payout.signingPayload as SolanaSigningPayload;
const usdcOf = (owner: string) => fx.tokensOf(owner, fx.devnet.mints.USDC);
const heldBy = async (tokenAccount: string) =>
  BigInt(
    (await fx.rpc.getTokenAccountBalance(address(tokenAccount), { commitment: 'confirmed' }).send()).value
      .amount,
  );

describe('Solana payouts: durable-nonce message, approval, co-signature, broadcast', () => {
  it('releases a USDC leg: the seller gets amount − fee, the fee address amount / 10,000, the relayer its rent back', async () => {
    const { leg, keys } = await fundedLeg('USDC', 25_000_000n);
    const plan = planSettlement(leg, 25_000_000n, { kind: 'release' }, fx.feeAddress);
    const payout = await fx.solana.buildPayout(leg, plan);
    // Built again on the same nonce: the same message, the same reference.
    expect(await fx.solana.buildPayout(leg, plan)).toEqual(payout);
    // Fee: 25,000,000 / 10,000 = 2,500 (floor); the seller gets 25,000,000 − 2,500 = 24,997,500.
    expect(payloadOf(payout)).toMatchObject({
      format: 'solana_message',
      signer: leg.signers.buyer,
      token_account: leg.depositAddress,
      summary: {
        transfers: [
          { kind: 'payout', to: leg.receiverPayoutAddress, amount: '24997500' },
          { kind: 'fee', to: fx.feeAddress, amount: '2500' },
        ],
        mint: fx.devnet.mints.USDC,
        network_fee: '0',
      },
    });

    // The buyer deposited the stable leg, so the buyer approves its release.
    const approval = signPayout(payout, keys.buyer.privateKey);
    const check = await fx.solana.verifyApproval(payout, approval, leg.signers.buyer);
    expect(check).toEqual({ valid: true, signature: approval });
    expect(await fx.solana.verifyApproval(payout, approval, leg.signers.seller)).toMatchObject({
      valid: false,
      signer: leg.signers.buyer,
      reason: expect.stringMatching(/is not a signer of this payout's message/),
    });
    const platform = await fx.solana.cosign(payout, leg.platformKeyIndex);
    const signed = await fx.solana.signPayoutTransaction(payout, [
      { signer: 'buyer', signature: approval },
      { signer: 'platform', signature: platform },
    ]);
    expect(signed.txRef).toBe(payout.payoutRef);
    // Signed again after a crash between co-signing and sending: the very same bytes.
    expect(
      await fx.solana.signPayoutTransaction(payout, [
        { signer: 'platform', signature: platform },
        { signer: 'buyer', signature: approval },
      ]),
    ).toEqual(signed);

    const relayerBefore = await fx.lamportsOf(fx.relayer);
    expect(await fx.solana.isSettled(leg)).toBe(false);
    expect(await fx.solana.confirmations(signed.txRef)).toEqual({ state: 'unknown' });
    await fx.solana.broadcast(signed);
    // Sent again after a crash: the node has it, which is no error.
    await fx.solana.broadcast(signed);
    const slot = await fx.waitConfirmed(signed.txRef);
    await fx.solana.broadcast(signed);
    expect(await fx.solana.isSettled(leg)).toBe(true);

    expect(await usdcOf(leg.receiverPayoutAddress)).toBe(24_997_500n);
    expect(await usdcOf(fx.feeAddress)).toBe(2_500n);
    // The relayer paid the network fee and the rent of two new ATAs (seller's, fee address's) and
    // got the leg's token account rent back: Δ = tokenRent − fee − 2 × tokenRent.
    const fee = await fx.feePaid(signed.txRef);
    expect(fee).toBe(15_000n); // 3 signatures × 5,000 lamports
    expect((await fx.lamportsOf(fx.relayer)) - relayerBefore).toBe(tokenRent - fee - 2n * tokenRent);

    const { reverted, movements } = await fx.solana.outgoingMovements(signed.txRef, leg);
    expect(reverted).toBe(false);
    // Instructions: 0 advance nonce, 1–2 the ATAs, 3–4 the transfers, 5 the close.
    expect(movements.map(({ kind, to, amount, position }) => ({ kind, to, amount, position }))).toEqual([
      { kind: 'payout', to: leg.receiverPayoutAddress, amount: 24_997_500n, position: 3 },
      { kind: 'fee', to: fx.feeAddress, amount: 2_500n, position: 4 },
    ]);
    expect(movements.reduce((sum, movement) => sum + movement.amount, 0n)).toBe(25_000_000n);
    expect(movements[0]!.height).toBe(slot);
    await fx.settleSlot(slot);
    const status = await fx.solana.confirmations(signed.txRef);
    expect(status).toMatchObject({ state: 'included', height: slot, final: true });
    expect(status.state === 'included' && status.blockRef).toBe(await fx.solana.blockRefAt(slot));
  });

  it('releases a SOL leg as native lamports: the buyer gets amount − fee, the relayer keeps exactly the rent', async () => {
    const { leg, keys } = await fundedLeg('SOL', 2n * SOL, [SOL, SOL]);
    const plan = planSettlement(leg, 2n * SOL, { kind: 'release' }, fx.feeAddress);
    const payout = await fx.solana.buildPayout(leg, plan);
    // Fee: 2,000,000,000 / 10,000 = 200,000 lamports; payout 1,999,800,000.
    expect(payloadOf(payout).summary).toEqual({
      transfers: [
        { kind: 'payout', to: leg.receiverPayoutAddress, amount: '1999800000' },
        { kind: 'fee', to: fx.feeAddress, amount: '200000' },
      ],
      mint: null,
      network_fee: '0',
    });
    const feeBefore = await fx.lamportsOf(fx.feeAddress);
    const relayerBefore = await fx.lamportsOf(fx.relayer);
    // The seller deposited the asset leg and approves its release, here in hex.
    const approval = hex.encode(base58.decode(signPayout(payout, keys.seller.privateKey)));
    const check = await fx.solana.verifyApproval(payout, approval, leg.signers.seller);
    if (!check.valid) throw new Error(check.reason);
    const { txRef } = await fx.solana.submit(payout, [
      { signer: 'seller', signature: check.signature },
      { signer: 'platform', signature: await fx.solana.cosign(payout, leg.platformKeyIndex) },
    ]);
    await fx.waitConfirmed(txRef);
    expect(await fx.lamportsOf(leg.receiverPayoutAddress)).toBe(1_999_800_000n);
    expect((await fx.lamportsOf(fx.feeAddress)) - feeBefore).toBe(200_000n);
    expect(await fx.lamportsOf(leg.depositAddress)).toBe(0n);
    // The close paid the relayer rent + 2 SOL; it paid 2 SOL out and the fee: Δ = tokenRent − fee.
    expect((await fx.lamportsOf(fx.relayer)) - relayerBefore).toBe(tokenRent - (await fx.feePaid(txRef)));
    expect(await fx.solana.isSettled(leg)).toBe(true);
    // A late payment to the closed address lands in a system account and is seen whole.
    const late = await fx.devnet.faucet.fundSol(leg.depositAddress, 1_000_000n);
    const lateSlot = await fx.waitConfirmed(late);
    await fx.settleSlot(lateSlot);
    const scanned = await fx.solana.scanDeposits(
      { fromHeight: lateSlot, toHeight: lateSlot },
      fx.indexOf([leg]),
    );
    expect(
      scanned.movements.map(({ tokenAddress, amount, txRef: ref }) => [tokenAddress, amount, ref]),
    ).toEqual([[null, 1_000_000n, late]]);
    expect(await fx.solana.isSettled(leg)).toBe(true);
    const { movements } = await fx.solana.outgoingMovements(txRef, leg);
    // Instructions: 0 advance nonce, 1 close, 2–3 the system transfers.
    expect(movements.map(({ kind, to, amount, position }) => ({ kind, to, amount, position }))).toEqual([
      { kind: 'payout', to: leg.receiverPayoutAddress, amount: 1_999_800_000n, position: 2 },
      { kind: 'fee', to: fx.feeAddress, amount: 200_000n, position: 3 },
    ]);
  });

  it('is refused by the chain with one multisig signer only (the party alone, the platform alone), and before it', async () => {
    const { leg, keys, opened } = await fundedLeg('USDC', 4_000_000n);
    const party = await fx.signerOf(keys.buyer.privateKey);
    await fx.waitConfirmed(await fx.devnet.faucet.fundSol(keys.buyer.address, SOL));
    await fx.waitConfirmed(await fx.devnet.faucet.fundToken(keys.buyer.address, fx.devnet.mints.USDC, 1n));
    const buyerAta = await associatedTokenAccount(keys.buyer.address, fx.devnet.mints.USDC);
    const steal = (signer: Parameters<typeof getTransferCheckedInstruction>[0]['authority']) =>
      getTransferCheckedInstruction({
        source: address(leg.depositAddress),
        mint: address(fx.devnet.mints.USDC),
        destination: address(buyerAta),
        authority: address(opened.custody.multisig),
        amount: 4_000_000n,
        decimals: 6,
        multiSigners: [signer as never],
      });
    // The SPL Token program counts the multisig's signers: one of the two it needs is not enough.
    const refusal = (sent: Promise<unknown>) =>
      sent.then(
        () => 'accepted',
        (error: unknown) => describeRpcError(error),
      );
    const partyAlone = await refusal(fx.send(party, [steal(party)]));
    expect(partyAlone).toMatch(/missing required signature/i);
    expect(partyAlone).toMatch(/Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA failed/);
    const relayer = kitSigner(await fx.platformKey.relayer());
    const platform = kitSigner(await fx.platformKey.legSigner(leg.platformKeyIndex));
    expect(await refusal(fx.send(relayer, [steal(platform)]))).toMatch(/missing required signature/i);
    expect(await heldBy(leg.depositAddress)).toBe(4_000_000n);
    expect(await usdcOf(keys.buyer.address)).toBe(1n);

    // The adapter refuses to assemble one either.
    const plan = planSettlement(leg, 4_000_000n, { kind: 'refund' }, fx.feeAddress);
    const payout = await fx.solana.buildPayout(leg, plan);
    const approval = signPayout(payout, keys.buyer.privateKey);
    await expect(
      fx.solana.signPayoutTransaction(payout, [{ signer: 'buyer', signature: approval }]),
    ).rejects.toThrow(
      `The payout has 1 valid signature(s) of the 2 its multisig needs: ${leg.signers.platform} did not sign`,
    );
    // With the platform's signature the refund goes through: all of it back to the depositor.
    const { txRef } = await fx.solana.submit(payout, [
      { signer: 'buyer', signature: approval },
      { signer: 'platform', signature: await fx.solana.cosign(payout, leg.platformKeyIndex) },
    ]);
    await fx.waitConfirmed(txRef);
    expect(await usdcOf(leg.depositorRefundAddress)).toBe(4_000_000n);
    const { movements } = await fx.solana.outgoingMovements(txRef, leg);
    expect(movements.map(({ kind, amount, position }) => [kind, amount, position])).toEqual([
      ['refund', 4_000_000n, 2],
    ]);
  });

  it("pays a mediator's split approved by the receiver: payout, fee and the depositor's share with the excess", async () => {
    const { leg, keys } = await fundedLeg('USDC', 8_000_000n, [8_500_000n]);
    // To the receiver 6,000,000 (fee 6,000,000 / 10,000 = 600), to the depositor 2,000,000 + the 500,000 excess.
    const plan = planSettlement(
      leg,
      8_500_000n,
      { kind: 'split', toReceiver: 6_000_000n, toDepositor: 2_000_000n },
      fx.feeAddress,
    );
    const payout = await fx.solana.buildPayout({ ...leg, approver: 'seller' }, plan);
    expect(payloadOf(payout).signer).toBe(leg.signers.seller);
    const approval = signPayout(payout, keys.seller.privateKey);
    const check = await fx.solana.verifyApproval(payout, approval, leg.signers.seller);
    if (!check.valid) throw new Error(check.reason);
    const feeBefore = await usdcOf(fx.feeAddress);
    const { txRef } = await fx.solana.submit(payout, [
      { signer: 'platform', signature: await fx.solana.cosign(payout, leg.platformKeyIndex) },
      { signer: 'seller', signature: check.signature },
    ]);
    await fx.waitConfirmed(txRef);
    expect(await usdcOf(leg.receiverPayoutAddress)).toBe(5_999_400n);
    expect((await usdcOf(fx.feeAddress)) - feeBefore).toBe(600n);
    expect(await usdcOf(leg.depositorRefundAddress)).toBe(2_500_000n);
    const { movements } = await fx.solana.outgoingMovements(txRef, leg);
    // Instructions: 0 advance, 1–3 the ATAs (receiver, fee, depositor), 4–6 the transfers, 7 the close.
    expect(movements.map(({ kind, to, amount, position }) => ({ kind, to, amount, position }))).toEqual([
      { kind: 'payout', to: leg.receiverPayoutAddress, amount: 5_999_400n, position: 4 },
      { kind: 'fee', to: fx.feeAddress, amount: 600n, position: 5 },
      { kind: 'refund', to: leg.depositorRefundAddress, amount: 2_500_000n, position: 6 },
    ]);
    expect(movements.reduce((sum, movement) => sum + movement.amount, 0n)).toBe(8_500_000n);
  });

  it('refuses to sign a payout when a deposit raced in after it was built (the engine rebuilds it)', async () => {
    const sol = await fundedLeg('SOL', SOL);
    const solPayout = await fx.solana.buildPayout(
      sol.leg,
      planSettlement(sol.leg, SOL, { kind: 'release' }, fx.feeAddress),
    );
    await fx.waitConfirmed(await fx.devnet.faucet.fundSol(sol.leg.depositAddress, 1_000n));
    // Closing the wSOL account would hand the extra 1,000 lamports to the relayer: refused before the
    // chain, as expired (the engine builds it again from the leg's deposits).
    const solRefusal = fx.solana.signPayoutTransaction(solPayout, [
      { signer: 'seller', signature: signPayout(solPayout, sol.keys.seller.privateKey) },
      { signer: 'platform', signature: await fx.solana.cosign(solPayout, sol.leg.platformKeyIndex) },
    ]);
    await expect(solRefusal).rejects.toThrow(/pays 1000000000 but the leg's account holds 1000001000/);
    await expect(solRefusal).rejects.toBeInstanceOf(PayoutExpiredError);

    const usdc = await fundedLeg('USDC', 3_000_000n);
    const usdcPayout = await fx.solana.buildPayout(
      usdc.leg,
      planSettlement(usdc.leg, 3_000_000n, { kind: 'release' }, fx.feeAddress),
    );
    await fx.waitConfirmed(
      await fx.devnet.faucet.fundToken(usdc.leg.depositAddress, fx.devnet.mints.USDC, 1n),
    );
    // CloseAccount would refuse a token account that still holds something: refused before the chain.
    const usdcRefusal = fx.solana.signPayoutTransaction(usdcPayout, [
      { signer: 'buyer', signature: signPayout(usdcPayout, usdc.keys.buyer.privateKey) },
      { signer: 'platform', signature: await fx.solana.cosign(usdcPayout, usdc.leg.platformKeyIndex) },
    ]);
    await expect(usdcRefusal).rejects.toThrow(/pays 3000000 but the leg's account holds 3000001/);
    await expect(usdcRefusal).rejects.toBeInstanceOf(PayoutExpiredError);
  });

  it('refuses a payout whose nonce another payout of the leg used first, with a clear reason', async () => {
    const { leg, keys } = await fundedLeg('USDC', 5_000_000n);
    const release = await fx.solana.buildPayout(
      leg,
      planSettlement(leg, 5_000_000n, { kind: 'release' }, fx.feeAddress),
    );
    const refund = await fx.solana.buildPayout(
      leg,
      planSettlement(leg, 5_000_000n, { kind: 'refund' }, fx.feeAddress),
    );
    const signatures = async (payout: typeof release) => [
      { signer: 'buyer' as const, signature: signPayout(payout, keys.buyer.privateKey) },
      { signer: 'platform' as const, signature: await fx.solana.cosign(payout, leg.platformKeyIndex) },
    ];
    const signedRelease = await fx.solana.signPayoutTransaction(release, await signatures(release));
    // Not sent yet and its nonce unused: bumping re-sends the same transaction.
    expect(await fx.solana.bumpFee(release, signedRelease, 1)).toEqual({
      replaces: true,
      transaction: signedRelease,
    });

    const { txRef } = await fx.solana.submit(refund, await signatures(refund));
    await fx.waitConfirmed(txRef);
    const stale =
      /is stale: its durable nonce was advanced by another transaction of the leg; build it again and ask for new approvals/;
    await expect(fx.solana.signPayoutTransaction(release, await signatures(release))).rejects.toThrow(stale);
    await expect(fx.solana.bumpFee(release, signedRelease, 1)).rejects.toThrow(stale);
    await expect(fx.solana.bumpFee(refund, { rawTransaction: '', txRef }, 1)).rejects.toThrow(
      /already in slot/,
    );
    // A payout of the closed leg cannot even be built.
    await expect(
      fx.solana.buildPayout(leg, planSettlement(leg, 5_000_000n, { kind: 'release' }, fx.feeAddress)),
    ).rejects.toThrow(/does not exist/);
  });
});
