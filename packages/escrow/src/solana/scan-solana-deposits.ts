import { getTokenSize } from '@solana-program/token';
import type {
  DepositAddressIndex,
  DepositMovement,
  ScanRange,
  ScanResult,
  WatchedLeg,
} from '../chain-adapter.js';
import type { SolanaChainContext } from './solana-chain-context.js';
import {
  RPC_BLOCK_NOT_AVAILABLE,
  RPC_LONG_TERM_STORAGE_SLOT_SKIPPED,
  RPC_SLOT_SKIPPED,
  rpcErrorCode,
} from './solana-rpc.js';
import { accountKeysOf, type JsonTransaction, tokenAmountAt } from './solana-transaction-json.js';

interface JsonBlock {
  blockhash: string;
  transactions: readonly JsonTransaction[];
}

const SKIPPED = new Set([RPC_SLOT_SKIPPED, RPC_LONG_TERM_STORAGE_SLOT_SKIPPED]);

/** The slot's block with full transactions in `json` encoding; null for a skipped slot. */
async function readBlock(context: SolanaChainContext, slot: bigint): Promise<JsonBlock | null> {
  try {
    const block = await context.rpc
      .getBlock(slot, {
        encoding: 'json',
        transactionDetails: 'full',
        maxSupportedTransactionVersion: 0,
        rewards: false,
        commitment: context.blockCommitment,
      })
      .send();
    // The kit's response type is a union over every encoding; this is the json one.
    return block as unknown as JsonBlock | null;
  } catch (error) {
    if (SKIPPED.has(rpcErrorCode(error) ?? 0)) return null;
    if (rpcErrorCode(error) === RPC_BLOCK_NOT_AVAILABLE) {
      throw new Error(
        `slot ${slot} has no ${context.blockCommitment} block yet: scan only up to currentHeight()`,
      );
    }
    throw error;
  }
}

/**
 * What one successful transaction paid the watched accounts among its keys. A SOL leg's deposits
 * are lamports (its wSOL account's lamport balance, less the rent-exempt reserve in the
 * transaction that created it as a token account; lamports reaching the address after the account
 * was closed count whole); a token leg's are increases of its token balance, and lamports
 * reaching it are a wrong-asset movement (tokenAddress null). A deposit's position is the account's
 * index among the transaction's keys: one transaction may pay several escrows (a batched payment),
 * each its own deposit, and the index stays the same when a reorg puts the transaction in another
 * block.
 */
function depositsIn(
  tx: JsonTransaction,
  watched: ReadonlyMap<string, WatchedLeg>,
  tokenAccountRent: bigint,
): Omit<DepositMovement, 'blockRef' | 'height'>[] {
  const meta = tx.meta!;
  const keys = accountKeysOf(tx);
  const txRef = tx.transaction.signatures[0]!;
  const movements: Omit<DepositMovement, 'blockRef' | 'height'>[] = [];
  keys.forEach((key, index) => {
    const leg = watched.get(key);
    if (!leg) return;
    const pre = meta.preBalances[index] ?? 0n;
    const post = meta.postBalances[index] ?? 0n;
    // Created as a token account here (no balance before, a token balance after): the rent is no deposit.
    const created = pre === 0n && tokenAmountAt(meta.postTokenBalances, index).balance !== undefined;
    const lamports = post - pre - (created ? tokenAccountRent : 0n);
    if (lamports > 0n) {
      const sender = keys.find(
        (other, otherIndex) =>
          other !== key &&
          (meta.preBalances[otherIndex] ?? 0n) - (meta.postBalances[otherIndex] ?? 0n) >= lamports,
      );
      movements.push({
        watched: leg,
        tokenAddress: null,
        amount: lamports,
        txRef,
        position: index,
        from: sender ?? null,
      });
    }
    if (leg.tokenAddress === null) return;
    const before = tokenAmountAt(meta.preTokenBalances, index);
    const after = tokenAmountAt(meta.postTokenBalances, index);
    const received = after.amount - before.amount;
    const mint = after.balance?.mint ?? before.balance?.mint;
    if (received <= 0n || !mint) return;
    const sender = (meta.postTokenBalances ?? []).find((balance) => {
      if (balance.mint !== mint || balance.accountIndex === index) return false;
      return (
        tokenAmountAt(meta.preTokenBalances, balance.accountIndex).amount >
        BigInt(balance.uiTokenAmount.amount)
      );
    });
    movements.push({
      watched: leg,
      tokenAddress: mint,
      amount: received,
      txRef,
      position: index,
      from: sender?.owner ?? null,
    });
  });
  return movements;
}

/**
 * Deposits in the slots of `range`: each block is read once (getBlock, json, full transactions),
 * the account keys of its successful transactions are asked of the index in one query, and every
 * watched account's balance increase is a deposit at the account's index in the transaction.
 * Skipped slots have no block and are passed over.
 */
export async function scanSolanaDeposits(
  context: SolanaChainContext,
  range: ScanRange,
  index: DepositAddressIndex,
): Promise<ScanResult> {
  const movements: DepositMovement[] = [];
  const tokenAccountRent = await context.rentExempt(getTokenSize());
  for (let slot = range.fromHeight; slot <= range.toHeight; slot++) {
    const block = await readBlock(context, slot);
    if (!block) continue;
    const succeeded = block.transactions.filter((tx) => tx.meta && tx.meta.err === null);
    const candidates = new Set(succeeded.flatMap((tx) => accountKeysOf(tx)));
    if (candidates.size === 0) continue;
    const watched = await index.match([...candidates]);
    if (watched.size === 0) continue;
    for (const tx of succeeded) {
      for (const deposit of depositsIn(tx, watched, tokenAccountRent)) {
        movements.push({ ...deposit, blockRef: block.blockhash, height: slot });
      }
    }
  }
  return { movements, scannedTo: range.toHeight };
}
