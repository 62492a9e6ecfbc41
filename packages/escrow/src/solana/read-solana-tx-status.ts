import { signature } from '@solana/kit';
import type { TxStatus } from '../chain-adapter.js';
import type { SolanaChainContext } from './solana-chain-context.js';
import {
  RPC_BLOCK_NOT_AVAILABLE,
  RPC_LONG_TERM_STORAGE_SLOT_SKIPPED,
  RPC_SLOT_SKIPPED,
  rpcErrorCode,
} from './solana-rpc.js';

/** The blockhash of the slot's block at `commitment`; null for a skipped slot or one without such a block yet. */
export async function readBlockhash(
  context: SolanaChainContext,
  slot: bigint,
  commitment: 'confirmed' | 'finalized',
): Promise<string | null> {
  try {
    const block = await context.rpc
      .getBlock(slot, {
        transactionDetails: 'none',
        rewards: false,
        commitment,
        maxSupportedTransactionVersion: 0,
      })
      .send();
    return block?.blockhash ?? null;
  } catch (error) {
    const code = rpcErrorCode(error);
    if (
      code === RPC_SLOT_SKIPPED ||
      code === RPC_LONG_TERM_STORAGE_SLOT_SKIPPED ||
      code === RPC_BLOCK_NOT_AVAILABLE
    )
      return null;
    throw error;
  }
}

/**
 * Where a transaction stands (getSignatureStatuses, searching the history): its slot and the
 * block's hash, its depth in slots under the confirmed tip, and whether it is final — finalized
 * by the cluster under the `finalized` policy, deep enough under a depth policy. Unknown when the
 * node has no status (Solana has no mempool to show a pending transaction in).
 */
export async function readSolanaTxStatus(context: SolanaChainContext, txRef: string): Promise<TxStatus> {
  const { value } = await context.rpc
    .getSignatureStatuses([signature(txRef)], { searchTransactionHistory: true })
    .send();
  const status = value[0];
  if (!status) return { state: 'unknown' };
  const slot = BigInt(status.slot);
  // The tip and the block's hash are independent reads: asked together, one round trip.
  const [tip, blockRef] = await Promise.all([
    context.rpc.getSlot({ commitment: 'confirmed' }).send(),
    readBlockhash(context, slot, 'confirmed'),
  ]);
  if (!blockRef) return { state: 'unknown' };
  const confirmations = tip >= slot ? Number(tip - slot) + 1 : 1;
  const final =
    context.policy.finality === 'finalized'
      ? status.confirmationStatus === 'finalized'
      : confirmations >= context.policy.confirmations;
  return { state: 'included', blockRef, height: slot, confirmations, final };
}
