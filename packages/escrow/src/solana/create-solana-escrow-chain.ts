import { AppError } from '@covenant/domain';
import { base58 } from '@scure/base';
import { isAddress, signature } from '@solana/kit';
import { getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { PartySignature, UnsignedPayout } from '../chain-adapter.js';
import {
  type NewBlockHandlers,
  PayoutExpiredError,
  type SignedTransaction,
} from '../escrow-chain-adapter.js';
import { subscribeOverWebSocket } from '../subscribe-over-websocket.js';
import { legDepositor } from '../types.js';
import { broadcastSolanaTransaction } from './broadcast-solana-transaction.js';
import { buildSolanaPayoutMessage } from './build-solana-payout.js';
import { checkSolanaSigners, legAccountsOf, openSolanaLeg } from './open-solana-leg.js';
import { readSolanaLegCustody } from './read-solana-leg-custody.js';
import { readSolanaOutgoingMovements } from './read-solana-outgoing-movements.js';
import { readBlockhash, readSolanaTxStatus } from './read-solana-tx-status.js';
import { scanSolanaDeposits } from './scan-solana-deposits.js';
import { assertNonceUnused, signSolanaPayout } from './sign-solana-payout.js';
import { signSolanaSweep } from './sign-solana-sweep.js';
import { readAccounts, type SolanaChainContext } from './solana-chain-context.js';
import type { SolanaEscrowChain, SolanaEscrowChainOptions } from './solana-escrow-chain.js';
import { SOLANA_NATIVE_MINT } from './solana-leg-accounts.js';
import { payoutMessage, solanaSigningPayload } from './solana-payout.js';
import { createSolanaRpcClient } from './solana-rpc.js';
import { verifySolanaApproval } from './verify-solana-approval.js';

const DEFAULT_CONFIRM_TIMEOUT_MS = 30_000;

/**
 * The Solana chain over one node's JSON-RPC: each leg is a token account owned by an SPL Token
 * 2-of-3 multisig (buyer, seller, the platform's key for the leg) with a durable nonce account,
 * all created by the platform's relayer; deposits are balance increases of that account; a payout
 * is one transaction the giving party and the platform sign as multisig signers, the relayer as
 * fee payer. Every read goes to the node uncached (but the rent-exempt minimums).
 */
export function createSolanaEscrowChain(options: SolanaEscrowChainOptions): SolanaEscrowChain {
  if (!isAddress(options.feeAddress))
    throw new Error(`the SOL fee address ${options.feeAddress} is not a Solana address`);
  const mintsByAddress = new Map(Object.values(options.mints).map((mint) => [mint.address, mint]));
  const rpc = createSolanaRpcClient(options.rpcUrl);
  const rents = new Map<number, Promise<bigint>>();
  const context: SolanaChainContext = {
    rpc,
    platformKey: options.platformKey,
    feeAddress: options.feeAddress,
    policy: options.confirmationPolicy,
    blockCommitment: options.confirmationPolicy.finality === 'finalized' ? 'finalized' : 'confirmed',
    mintOf: (mint) => mintsByAddress.get(mint),
    rentExempt(space) {
      let rent = rents.get(space);
      if (!rent) {
        rent = rpc.getMinimumBalanceForRentExemption(BigInt(space)).send().then(BigInt);
        rent.catch(() => rents.delete(space));
        rents.set(space, rent);
      }
      return rent;
    },
    confirmTimeoutMs: options.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS,
  };

  const signPayoutTransaction = (payout: UnsignedPayout, signatures: readonly PartySignature[]) =>
    signSolanaPayout(context, payout, signatures);
  const broadcast = (transaction: SignedTransaction) => broadcastSolanaTransaction(context, transaction);

  const { wsUrl } = options;
  return {
    chain: 'SOL',
    network: options.network,
    // A slot notification tells of a new slot as the node starts it; the pass it wakes reads the
    // confirmed tip as usual, so a slot counts once the cluster has confirmed it.
    ...(wsUrl
      ? {
          subscribeNewBlocks: (handlers: NewBlockHandlers) =>
            subscribeOverWebSocket(wsUrl, 'slotSubscribe', [], handlers),
        }
      : {}),
    feeAddress: options.feeAddress,
    confirmationPolicy: options.confirmationPolicy,
    // The message names the multisig signers: a payout either party may approve is built per party.
    payoutNamesApprover: true,
    partialPayouts: true,
    // Only a SOL leg's closed account leaves an address the platform holds the key of.
    sweeps: (leg) => leg.tokenAddress === null,

    relayerAddress: async () => (await options.platformKey.relayer()).address,

    platformSigner: async (keyIndex) => (await options.platformKey.legSigner(keyIndex)).address,

    async depositAddress(terms) {
      checkSolanaSigners(terms.signers);
      return (await legAccountsOf(context, terms)).tokenAccount;
    },

    openLeg: (terms) => openSolanaLeg(context, terms),

    scanDeposits: (range, index) => scanSolanaDeposits(context, range, index),

    confirmations: (txRef) => readSolanaTxStatus(context, txRef),

    async buildPayout(leg, plan) {
      if (leg.chain !== 'SOL' || plan.escrowId !== leg.escrowId || plan.leg !== leg.leg) {
        throw new Error(
          `the plan for ${plan.escrowId}/${plan.leg} is not for Solana leg ${leg.escrowId}/${leg.leg}`,
        );
      }
      if (!('platformKeyIndex' in leg)) throw new Error('a Solana payout needs the leg’s platform key index');
      const platform = await options.platformKey.legSigner(leg.platformKeyIndex);
      if (platform.address !== leg.signers.platform) {
        throw new Error(`the platform key ${leg.platformKeyIndex} is not the leg's platform signer`);
      }
      for (const transfer of plan.transfers) {
        if (!isAddress(transfer.to)) {
          throw new AppError(
            'VALIDATION_FAILED',
            `The ${transfer.kind} address ${transfer.to} is not a Solana address`,
          );
        }
      }
      const token = leg.tokenAddress ? context.mintOf(leg.tokenAddress) : null;
      if (token === undefined)
        throw new Error(`the mint ${leg.tokenAddress} is not a token traded on Solana`);
      const custody = await readSolanaLegCustody(context, leg);
      const relayer = await options.platformKey.relayer();
      const { messageBytes, signingPayload } = await buildSolanaPayoutMessage({
        plan,
        tokenAccount: leg.depositAddress,
        multisig: custody.multisig,
        token: token ? { mint: token.address, decimals: token.decimals } : null,
        nonceAccount: custody.nonceAccount,
        nonceValue: custody.nonceValue,
        relayer: relayer.address,
        party: leg.signers[leg.approver ?? legDepositor[leg.leg]],
        platform: platform.address,
      });
      // The fee payer's signature is the transaction's id: known now, the same for the same message.
      const payoutRef = base58.encode(await relayer.sign(messageBytes));
      return { chain: 'SOL', escrowId: leg.escrowId, leg: leg.leg, payoutRef, signingPayload };
    },

    verifyApproval: async (payout, approval, expectedSigner) =>
      verifySolanaApproval(payout, approval, expectedSigner),

    async cosign(payout, keyIndex) {
      const platform = await options.platformKey.legSigner(keyIndex);
      const message = payoutMessage(payout);
      if (!message.signers.includes(platform.address)) {
        throw new Error(`the platform key ${keyIndex} is not a signer of payout ${payout.payoutRef}`);
      }
      return base58.encode(await platform.sign(message.bytes));
    },

    signPayoutTransaction,

    async submit(payout, signatures) {
      const transaction = await signPayoutTransaction(payout, signatures);
      await broadcast(transaction);
      return { txRef: transaction.txRef };
    },

    broadcast,

    // Lamports paid to a SOL leg's address after its wSOL account closed: back to the depositor.
    signSweep: (depositAddress, leg) =>
      signSolanaSweep(context, Object.values(options.mints), depositAddress, leg),

    outgoingMovements: (txRef, leg) => readSolanaOutgoingMovements(context, txRef, leg),

    async isSettled(leg) {
      const [account] = await readAccounts(rpc, [leg.depositAddress]);
      if (account?.owner !== TOKEN_PROGRAM_ADDRESS) return true;
      const token = getTokenDecoder().decode(account.data);
      if (token.mint !== SOLANA_NATIVE_MINT) return token.amount === 0n;
      const rent = token.isNative.__option === 'Some' ? token.isNative.value : 0n;
      return account.lamports <= rent;
    },

    rebuildsRevertedPayouts: true,

    async payoutMayStillLand(payout) {
      try {
        await assertNonceUnused(context, payout);
        return true;
      } catch (error) {
        if (error instanceof PayoutExpiredError) return false;
        throw error;
      }
    },

    async bumpFee(payout, sent) {
      solanaSigningPayload(payout);
      const { value } = await rpc
        .getSignatureStatuses([signature(sent.txRef)], { searchTransactionHistory: true })
        .send();
      if (value[0]) {
        throw new Error(
          `payout ${payout.payoutRef}'s transaction is already in slot ${value[0].slot}: nothing to bump`,
        );
      }
      // No mempool queue to outbid: the same transaction, sent again, while its nonce is unused.
      await assertNonceUnused(context, payout);
      return { replaces: true, transaction: sent };
    },

    async blockRefAt(height) {
      if (height < 0n) return null;
      const tip = await rpc.getSlot({ commitment: context.blockCommitment }).send();
      if (height > tip) return null;
      return readBlockhash(context, height, context.blockCommitment);
    },

    currentHeight: () => rpc.getSlot({ commitment: context.blockCommitment }).send(),
  };
}
