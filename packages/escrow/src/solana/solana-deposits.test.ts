import { base64 } from '@scure/base';
import { address } from '@solana/kit';
import { getNonceDecoder, getNonceSize, getTransferSolInstruction } from '@solana-program/system';
import {
  getMultisigDecoder,
  getMultisigSize,
  getTokenDecoder,
  getTokenSize,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { associatedTokenAccount, SOLANA_NATIVE_MINT } from './solana-leg-accounts.js';
import { partyKey, SOL, type SolanaFixture, startSolanaFixture } from './solana-test-fixture.js';

let fx: SolanaFixture;

beforeAll(async () => {
  fx = await startSolanaFixture();
});

afterAll(async () => {
  await fx?.stop();
});

async function accountData(account: string) {
  const { value } = await fx.rpc
    .getAccountInfo(address(account), { encoding: 'base64', commitment: 'confirmed' })
    .send();
  if (!value) throw new Error(`no account at ${account}`);
  return { owner: value.owner, lamports: value.lamports, data: base64.decode(value.data[0]) };
}

const rent = async (space: number) => fx.rpc.getMinimumBalanceForRentExemption(BigInt(space)).send();

describe('Solana legs: custody and deposits', () => {
  it('opens a USDC leg: nonce (relayer authority), 2-of-3 multisig (buyer, seller, platform) and its ATA, once', async () => {
    const { terms, leg, opened } = await fx.openLeg('USDC', 25_000_000n);
    const { custody } = opened;
    expect(opened.txRef).toEqual(expect.any(String));
    expect(custody).toEqual({
      multisig: expect.any(String),
      token_account: leg.depositAddress,
      nonce_account: expect.any(String),
      mint: fx.devnet.mints.USDC,
      threshold: 2,
      public_keys: terms.signers,
      solana_pay_recipient: custody.multisig,
    });
    // The deposit address is the multisig's associated account of the mint, known without the network.
    expect(leg.depositAddress).toBe(await associatedTokenAccount(custody.multisig, fx.devnet.mints.USDC));
    expect(await fx.solana.depositAddress(terms)).toBe(leg.depositAddress);

    const multisig = await accountData(custody.multisig);
    expect(multisig.lamports).toBe(await rent(getMultisigSize()));
    const decoded = getMultisigDecoder().decode(multisig.data);
    expect({ m: decoded.m, n: decoded.n, signers: decoded.signers.slice(0, 3) }).toEqual({
      m: 2,
      n: 3,
      signers: [terms.signers.buyer, terms.signers.seller, terms.signers.platform],
    });
    const token = getTokenDecoder().decode((await accountData(leg.depositAddress)).data);
    expect({ owner: token.owner, mint: token.mint, amount: token.amount }).toEqual({
      owner: custody.multisig,
      mint: fx.devnet.mints.USDC,
      amount: 0n,
    });
    const nonce = await accountData(custody.nonce_account);
    expect(nonce.lamports).toBe(await rent(getNonceSize()));
    expect(getNonceDecoder().decode(nonce.data).authority).toBe(fx.relayer);

    // Opening it again sends nothing and returns the same custody.
    expect(await fx.solana.openLeg(terms)).toEqual({ ...opened, txRef: null });
  });

  it('opens a SOL leg on a wrapped-SOL account owned by the multisig, the Solana Pay recipient itself', async () => {
    const { terms, leg, opened } = await fx.openLeg('SOL', 2n * SOL);
    expect(opened.custody.mint).toBe(SOLANA_NATIVE_MINT);
    expect(opened.custody.solana_pay_recipient).toBe(leg.depositAddress);
    const account = await accountData(leg.depositAddress);
    expect(account.lamports).toBe(await rent(getTokenSize()));
    const token = getTokenDecoder().decode(account.data);
    expect({ owner: token.owner, mint: token.mint }).toEqual({
      owner: opened.custody.multisig,
      mint: SOLANA_NATIVE_MINT,
    });
    expect(await fx.solana.openLeg(terms)).toEqual({ ...opened, txRef: null });
  });

  it('finds partial then complete token deposits and native SOL deposits, asking the index once per block', async () => {
    const from = await fx.solana.currentHeight();
    const usdc = await fx.openLeg('USDC', 25_000_000n);
    const sol = await fx.openLeg('SOL', 2n * SOL);
    // 10 USDC minted straight to the leg (a mint names no sender).
    const minted = await fx.devnet.faucet.fundToken(
      usdc.leg.depositAddress,
      fx.devnet.mints.USDC,
      10_000_000n,
    );
    // 15 USDC from a wallet's own token account.
    const wallet = partyKey();
    await fx.waitConfirmed(await fx.devnet.faucet.fundSol(wallet.address, 3n * SOL));
    await fx.waitConfirmed(
      await fx.devnet.faucet.fundToken(wallet.address, fx.devnet.mints.USDC, 20_000_000n),
    );
    const walletAta = await associatedTokenAccount(wallet.address, fx.devnet.mints.USDC);
    const walletSigner = await fx.signerOf(wallet.privateKey);
    const transferred = await fx.send(walletSigner, [
      getTransferCheckedInstruction({
        source: address(walletAta),
        mint: address(fx.devnet.mints.USDC),
        destination: address(usdc.leg.depositAddress),
        authority: walletSigner,
        amount: 15_000_000n,
        decimals: 6,
      }),
    ]);
    // 1.5 SOL as a plain system transfer to the wSOL account (what a Solana Pay wallet sends).
    const solDeposit = await fx.send(walletSigner, [
      getTransferSolInstruction({
        source: walletSigner,
        destination: address(sol.leg.depositAddress),
        amount: 1_500_000_000n,
      }),
    ]);
    // Lamports sent to the USDC leg's account: the wrong asset, reported as native.
    const stray = await fx.devnet.faucet.fundSol(usdc.leg.depositAddress, 7_000n);
    await fx.settleSlot(await fx.waitConfirmed(stray));
    const to = await fx.solana.currentHeight();

    const index = fx.indexOf([usdc.leg, sol.leg]);
    const { movements, scannedTo } = await fx.solana.scanDeposits(
      { fromHeight: from + 1n, toHeight: to },
      index,
    );
    expect(scannedTo).toBe(to);
    const blocks = await fx.rpc.getBlocks(from + 1n, to, { commitment: 'confirmed' }).send();
    let blocksWithTransactions = 0;
    for (const slot of blocks) {
      const block = await fx.rpc
        .getBlock(slot, { transactionDetails: 'signatures', rewards: false, commitment: 'confirmed' })
        .send();
      if ((block?.signatures.length ?? 0) > 0) blocksWithTransactions++;
    }
    // One query per block that has transactions, never one per leg or per transaction.
    expect(index.queries).toHaveLength(blocksWithTransactions);
    expect(
      movements.map(({ watched, tokenAddress, amount, txRef, from: sender }) => ({
        leg: watched.depositAddress,
        tokenAddress,
        amount,
        txRef,
        from: sender,
      })),
    ).toEqual([
      {
        leg: usdc.leg.depositAddress,
        tokenAddress: fx.devnet.mints.USDC,
        amount: 10_000_000n,
        txRef: minted,
        from: null,
      },
      {
        leg: usdc.leg.depositAddress,
        tokenAddress: fx.devnet.mints.USDC,
        amount: 15_000_000n,
        txRef: transferred,
        from: wallet.address,
      },
      {
        leg: sol.leg.depositAddress,
        tokenAddress: null,
        amount: 1_500_000_000n,
        txRef: solDeposit,
        from: wallet.address,
      },
      {
        leg: usdc.leg.depositAddress,
        tokenAddress: null,
        amount: 7_000n,
        txRef: stray,
        from: expect.any(String),
      },
    ]);
    // The creation of both legs' accounts (rent only) moved nothing in.
    for (const movement of movements) {
      expect(movement.blockRef).toBe(await fx.solana.blockRefAt(movement.height));
      expect(movement.height).toBeGreaterThan(from);
    }
    expect(await fx.solana.blockRefAt(to + 1_000n)).toBeNull();
  });
});
