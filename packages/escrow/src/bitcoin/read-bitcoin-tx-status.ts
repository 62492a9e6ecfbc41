import type { ConfirmationPolicy, TxStatus } from '../chain-adapter.js';
import { type BitcoinRpc, unknownToNull } from './bitcoin-rpc.js';

interface VerboseTransaction {
  hex: string;
  blockhash?: string | null;
}

interface BlockHeader {
  height: number;
  confirmations: number;
}

/** The transaction from the node's index or mempool (getrawtransaction verbose), null when it knows none. */
export async function readVerboseTransaction(
  rpc: BitcoinRpc,
  txid: string,
): Promise<VerboseTransaction | null> {
  return rpc<VerboseTransaction | null>('getrawtransaction', [txid, true]).catch(unknownToNull);
}

/**
 * Where a transaction stands on the node's best chain: the block the transaction index names, if
 * that block is on the best chain (confirmations ≥ 1; a reorged block has -1 on Bitcoin Core), its
 * depth counted by the node; otherwise the mempool if it holds it; otherwise unknown.
 */
export async function readBitcoinTxStatus(
  rpc: BitcoinRpc,
  policy: ConfirmationPolicy,
  txid: string,
): Promise<TxStatus> {
  const tx = await readVerboseTransaction(rpc, txid);
  if (!tx) return { state: 'unknown' };
  if (tx.blockhash) {
    const header = await rpc<BlockHeader>('getblockheader', [tx.blockhash, true]);
    if (header.confirmations >= 1) {
      return {
        state: 'included',
        blockRef: tx.blockhash,
        height: BigInt(header.height),
        confirmations: header.confirmations,
        final: header.confirmations >= policy.confirmations,
      };
    }
  }
  const mempool = await rpc<string[]>('getrawmempool');
  return mempool.includes(txid) ? { state: 'mempool' } : { state: 'unknown' };
}
