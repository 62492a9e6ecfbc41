import { type Hex, type PublicClient, TransactionNotFoundError, TransactionReceiptNotFoundError } from 'viem';
import type { ConfirmationPolicy, TxStatus } from '../chain-adapter.js';

/**
 * Where a transaction stands on the node's canonical chain now. Its receipt gives the block it is
 * in (a reorg moves or removes it); depth counts that block; `final` follows the policy: the node's
 * finalized checkpoint, or the depth alone. Known but without a receipt is the mempool; neither is
 * unknown (never sent, or dropped).
 */
export async function readTxStatus(
  client: PublicClient,
  policy: ConfirmationPolicy,
  txRef: string,
): Promise<TxStatus> {
  const hash = txRef as Hex;
  // The tip is asked with the receipt, not after it (one round trip): answered first, it can only
  // count fewer confirmations than the block has (none when it is older than the block), never more.
  const [receipt, tip] = await Promise.all([
    client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    }),
    client.getBlockNumber(),
  ]);
  if (!receipt) {
    const known = await client.getTransaction({ hash }).then(
      () => true,
      (error: unknown) => {
        if (error instanceof TransactionNotFoundError) return false;
        throw error;
      },
    );
    return { state: known ? 'mempool' : 'unknown' };
  }
  const height = receipt.blockNumber;
  const confirmations = tip >= height ? Number(tip - height + 1n) : 0;
  const final =
    policy.finality === 'finalized'
      ? height <= (await client.getBlock({ blockTag: 'finalized' })).number
      : confirmations >= policy.confirmations;
  return { state: 'included', blockRef: receipt.blockHash, height, confirmations, final };
}
