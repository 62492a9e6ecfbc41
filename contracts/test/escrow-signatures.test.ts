import { hashTypedData } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { covenantEscrowAbi, ETH_TOKEN, type LegTerms, payoutTypedData, releasePayout } from '../src/index.js';
import { type EscrowFixture, revertOf, startEscrowFixture } from './escrow-fixture.js';

describe('CovenantEscrow approvals', () => {
  let fx: EscrowFixture;
  beforeAll(async () => {
    fx = await startEscrowFixture();
  });
  afterAll(async () => {
    await fx.stop();
  });

  async function fundedEscrow(overrides: Partial<LegTerms> = {}) {
    const terms = fx.legTerms({ amount: 50_000n, ...overrides });
    const escrow = await fx.createEscrow(terms);
    await fx.fund(ETH_TOKEN, escrow, 50_000n);
    return { terms, escrow };
  }

  it('computes on-chain the same EIP-712 digest viem signs', async () => {
    const { terms, escrow } = await fundedEscrow();
    const payout = releasePayout(terms);
    expect(
      await fx.publicClient.readContract({
        address: escrow,
        abi: covenantEscrowAbi,
        functionName: 'payoutDigest',
        args: [payout.action, payout.recipients, payout.amounts, payout.nonce],
      }),
    ).toBe(hashTypedData(payoutTypedData(fx.anvil.chainId, escrow, payout)));
  });

  it('refuses a signature from anyone but the buyer, the seller and the platform', async () => {
    const { terms, escrow } = await fundedEscrow();
    const payout = releasePayout(terms);
    const stranger = generatePrivateKey();
    expect(
      await revertOf(fx.executePayout(escrow, payout, await fx.sign(escrow, payout, ['buyer', stranger]))),
    ).toEqual({
      errorName: 'CovenantEscrowUnknownSigner',
      args: [privateKeyToAccount(stranger).address],
    });
  });

  it('refuses the same signer twice, and a single signature', async () => {
    const { terms, escrow } = await fundedEscrow();
    const payout = releasePayout(terms);
    const [buyerSignature] = await fx.sign(escrow, payout, ['buyer']);
    expect(await revertOf(fx.executePayout(escrow, payout, [buyerSignature!, buyerSignature!]))).toEqual({
      errorName: 'CovenantEscrowDuplicateSigner',
      args: [terms.buyer],
    });
    expect(await revertOf(fx.executePayout(escrow, payout, [buyerSignature!]))).toEqual({
      errorName: 'CovenantEscrowNotEnoughSignatures',
      args: [1n, 2n],
    });
  });

  it('refuses signatures made for another escrow with the same signers', async () => {
    const { terms, escrow } = await fundedEscrow();
    const other = await fundedEscrow({
      receiver: terms.receiver,
      depositor: terms.depositor,
      feeRecipient: terms.feeRecipient,
    });
    const payout = releasePayout(terms);
    const signedForOther = await fx.sign(other.escrow, payout, ['buyer', 'seller']);
    expect((await revertOf(fx.executePayout(escrow, payout, signedForOther))).errorName).toBe(
      'CovenantEscrowUnknownSigner',
    );
  });

  it('refuses signatures made for another chain id', async () => {
    const { terms, escrow } = await fundedEscrow();
    const payout = releasePayout(terms);
    const mainnetSignatures = await fx.sign(escrow, payout, ['buyer', 'seller'], 1);
    expect((await revertOf(fx.executePayout(escrow, payout, mainnetSignatures))).errorName).toBe(
      'CovenantEscrowUnknownSigner',
    );
  });

  it('refuses signatures over other amounts or another action than submitted', async () => {
    const { terms, escrow } = await fundedEscrow();
    const payout = releasePayout(terms);
    const signatures = await fx.sign(escrow, { ...payout, amounts: [terms.amount - 1n] }, [
      'buyer',
      'seller',
    ]);
    expect((await revertOf(fx.executePayout(escrow, payout, signatures))).errorName).toBe(
      'CovenantEscrowUnknownSigner',
    );
  });

  it('refuses a replay after use, and any payout once settled', async () => {
    const { terms, escrow } = await fundedEscrow();
    const payout = releasePayout(terms);
    const signatures = await fx.sign(escrow, payout, ['buyer', 'seller']);
    await fx.executePayout(escrow, payout, signatures);
    await fx.fund(ETH_TOKEN, escrow, 50_000n);

    expect(await revertOf(fx.executePayout(escrow, payout, signatures))).toEqual({
      errorName: 'CovenantEscrowInvalidNonce',
      args: [1n, 0n],
    });
    const next = releasePayout(terms, 1n);
    expect(
      (await revertOf(fx.executePayout(escrow, next, await fx.sign(escrow, next, ['buyer', 'seller']))))
        .errorName,
    ).toBe('CovenantEscrowAlreadySettled');
    // 50_000 wei released once: receiver 49_995, fee 5; the second deposit is still there for sweep().
    expect(await fx.balanceOf(ETH_TOKEN, terms.receiver)).toBe(49_995n);
    expect(await fx.balanceOf(ETH_TOKEN, terms.feeRecipient)).toBe(5n);
    expect(await fx.balanceOf(ETH_TOKEN, escrow)).toBe(50_000n);
  });
});
