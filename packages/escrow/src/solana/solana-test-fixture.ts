import { randomBytes, randomUUID } from 'node:crypto';
import { type SolanaDevnet, startSolanaDevnet } from '@covenant/devnets';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64 } from '@scure/base';
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Instruction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signature,
  signTransactionMessageWithSigners,
  type TransactionSigner,
} from '@solana/kit';
import type {
  ConfirmationPolicy,
  DepositAddressIndex,
  LegTerms,
  UnsignedPayout,
  WatchedLeg,
} from '../chain-adapter.js';
import type { EscrowLeg, Leg, LegSigners } from '../types.js';
import { createSolanaEscrowChain } from './create-solana-escrow-chain.js';
import { solanaPlatformKeyFromSeed } from './platform-solana-key.js';
import type { SolanaEscrowChain } from './solana-escrow-chain.js';
import { associatedTokenAccount } from './solana-leg-accounts.js';
import { solanaSigningPayload } from './solana-payout.js';
import { createSolanaRpcClient } from './solana-rpc.js';

/** A party's ed25519 key, as the browser derives it (a random one here). */
export function partyKey(): { privateKey: Uint8Array; address: string } {
  const privateKey = randomBytes(32);
  return { privateKey, address: base58.encode(ed25519.getPublicKey(privateKey)) };
}

/** A party's approval: its ed25519 signature of the payout's message bytes, base58 as a wallet returns it. */
export function signPayout(payout: UnsignedPayout, privateKey: Uint8Array): string {
  return base58.encode(ed25519.sign(base64.decode(solanaSigningPayload(payout).data), privateKey));
}

export const SOL = 1_000_000_000n;

/**
 * A fresh Solana devnet (20 ms slots) with the Solana adapter over it, the platform's keys from a
 * random seed, the relayer funded with 1,000 SOL and the fee address with 1 SOL (a wallet must
 * hold the rent-exempt minimum before a small fee can reach it), and helpers to open legs, index
 * them, move funds and read balances.
 */
export async function startSolanaFixture(
  confirmationPolicy: ConfirmationPolicy = { finality: 'depth', confirmations: 1 },
  finalityLagSlots = 2,
) {
  const devnet: SolanaDevnet = await startSolanaDevnet({ slotIntervalMs: 20, finalityLagSlots });
  const rpc = createSolanaRpcClient(devnet.rpcUrl);
  const platformKey = solanaPlatformKeyFromSeed(randomBytes(32));
  const feeAddress = partyKey().address;
  const options = {
    rpcUrl: devnet.rpcUrl,
    network: 'localnet' as const,
    feeAddress,
    mints: {
      USDC: { address: devnet.mints.USDC, decimals: 6 },
      USDT: { address: devnet.mints.USDT, decimals: 6 },
    },
    platformKey,
  };
  const solana: SolanaEscrowChain = createSolanaEscrowChain({ ...options, confirmationPolicy });
  const relayer = await solana.relayerAddress();
  await waitConfirmed(await devnet.faucet.fundSol(relayer, 1_000n * SOL));
  await waitConfirmed(await devnet.faucet.fundSol(feeAddress, SOL));
  let nextKeyIndex = 0;

  /** Waits until the chain's tip under the adapter's policy has passed `slot`. */
  async function settleSlot(slot?: bigint, adapter: SolanaEscrowChain = solana) {
    const target = slot ?? (await rpc.getSlot({ commitment: 'processed' }).send());
    while ((await adapter.currentHeight()) <= target) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** A leg of `requiredAmount` base units of `symbol`, opened (its accounts created on the devnet). */
  async function openLeg(
    symbol: 'SOL' | 'USDC' | 'USDT',
    requiredAmount: bigint,
    leg: Leg = symbol === 'SOL' ? 'asset' : 'stable',
  ) {
    const buyer = partyKey();
    const seller = partyKey();
    const receiver = partyKey();
    const depositor = partyKey();
    const platformKeyIndex = nextKeyIndex++;
    const signers: LegSigners = {
      buyer: buyer.address,
      seller: seller.address,
      platform: await solana.platformSigner(platformKeyIndex),
    };
    const terms: LegTerms = {
      dealId: randomUUID(),
      leg,
      chain: 'SOL',
      symbol,
      tokenAddress: symbol === 'SOL' ? null : devnet.mints[symbol],
      requiredAmount,
      depositorRefundAddress: depositor.address,
      receiverPayoutAddress: receiver.address,
      deadline: new Date(Date.now() + 3_600_000),
      refundAfter: null,
      signers,
    };
    const opened = await solana.openLeg(terms);
    const { dealId, ...rest } = terms;
    const escrowLeg: EscrowLeg & { platformKeyIndex: number } = {
      ...rest,
      escrowId: `escrow-${dealId}`,
      depositAddress: opened.depositAddress,
      requiredConfirmations: 1,
      platformKeyIndex,
    };
    return { terms, leg: escrowLeg, opened, keys: { buyer, seller, receiver, depositor } };
  }

  /** An index over the given legs that records its queries. */
  function indexOf(legs: readonly EscrowLeg[]): DepositAddressIndex & { queries: string[][] } {
    const watched = new Map<string, WatchedLeg>(
      legs.map((leg) => [
        leg.depositAddress,
        {
          escrowId: leg.escrowId,
          leg: leg.leg,
          depositAddress: leg.depositAddress,
          tokenAddress: leg.tokenAddress,
        },
      ]),
    );
    const queries: string[][] = [];
    return {
      queries,
      async match(addresses) {
        queries.push([...addresses]);
        return new Map(
          addresses.flatMap((key) => {
            const leg = watched.get(key);
            return leg ? [[key, leg] as const] : [];
          }),
        );
      },
    };
  }

  /** A kit signer of a party's key, for transactions the test sends itself. */
  const signerOf = (privateKey: Uint8Array) => createKeyPairSignerFromPrivateKeyBytes(privateKey);

  /** Sends `instructions` paid by `feePayer` (their other signers attached to them); resolves once confirmed. */
  async function send(feePayer: TransactionSigner, instructions: Instruction[]): Promise<string> {
    const { value: latest } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const message = pipe(
      createTransactionMessage({ version: 'legacy' }),
      (m) => setTransactionMessageFeePayerSigner(feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const signed = await signTransactionMessageWithSigners(message);
    await rpc
      .sendTransaction(getBase64EncodedWireTransaction(signed), {
        encoding: 'base64',
        preflightCommitment: 'processed',
      })
      .send();
    const txRef = getSignatureFromTransaction(signed);
    await waitConfirmed(txRef);
    return txRef;
  }

  /** The fee a confirmed transaction paid. */
  async function feePaid(txRef: string): Promise<bigint> {
    const tx = await rpc
      .getTransaction(signature(txRef), {
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
        commitment: 'confirmed',
      })
      .send();
    if (!tx?.meta) throw new Error(`transaction ${txRef} is not confirmed`);
    return BigInt(tx.meta.fee);
  }

  /** Waits until a transaction is confirmed; returns its slot. */
  async function waitConfirmed(txRef: string): Promise<bigint> {
    for (;;) {
      const { value } = await rpc.getSignatureStatuses([signature(txRef)]).send();
      const status = value[0];
      if (status && status.confirmationStatus !== 'processed') return status.slot;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const lamportsOf = async (account: string) =>
    (await rpc.getBalance(address(account), { commitment: 'confirmed' }).send()).value;

  /** The token balance of `owner`'s associated account of `mint` (0 when it has none). */
  async function tokensOf(owner: string, mint: string): Promise<bigint> {
    const ata = await associatedTokenAccount(owner, mint);
    const { value } = await rpc
      .getAccountInfo(address(ata), { encoding: 'base64', commitment: 'confirmed' })
      .send();
    if (!value) return 0n;
    const { value: balance } = await rpc
      .getTokenAccountBalance(address(ata), { commitment: 'confirmed' })
      .send();
    return BigInt(balance.amount);
  }

  return {
    devnet,
    rpc,
    solana,
    options,
    platformKey,
    feeAddress,
    relayer,
    openLeg,
    indexOf,
    send,
    signerOf,
    waitConfirmed,
    feePaid,
    settleSlot,
    lamportsOf,
    tokensOf,
    stop: () => devnet.stop(),
  };
}

export type SolanaFixture = Awaited<ReturnType<typeof startSolanaFixture>>;
