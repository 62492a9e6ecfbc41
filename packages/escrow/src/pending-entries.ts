import { type ConfirmationPolicy, meetsPolicy, type TxStatus } from './chain-adapter.js';

/** What re-reading a pending ledger entry's transaction means for the entry. */
export type PendingEntryUpdate =
  /** Unchanged. */
  | { kind: 'keep' }
  /** Still pending, now at this depth and block (a mempool entry that was just mined gets its block here). */
  | { kind: 'pending'; blockRef: string; height: bigint; confirmations: number }
  /** Deep enough: it counts. */
  | { kind: 'confirmed'; blockRef: string; height: bigint; confirmations: number }
  /** Dropped by a reorg, or re-included in another block (the scan records it again there). */
  | { kind: 'reorged' };

/**
 * The rule for a pending entry. An entry seen in the mempool (no block yet) stays pending while its
 * transaction is in the mempool and takes its block when it is included; one the node no longer
 * knows is dropped. An entry that had a block and whose transaction is no longer in that block
 * (back in the mempool, unknown, or in another block) was reorged.
 */
export function pendingEntryUpdate(
  entry: { blockRef: string | null; confirmations: number },
  status: TxStatus,
  policy: ConfirmationPolicy,
): PendingEntryUpdate {
  if (status.state !== 'included') {
    if (entry.blockRef === null && status.state === 'mempool') return { kind: 'keep' };
    return { kind: 'reorged' };
  }
  if (entry.blockRef !== null && status.blockRef !== entry.blockRef) return { kind: 'reorged' };
  const at = { blockRef: status.blockRef, height: status.height, confirmations: status.confirmations };
  if (meetsPolicy(policy, status)) return { kind: 'confirmed', ...at };
  if (entry.blockRef === null || status.confirmations !== entry.confirmations)
    return { kind: 'pending', ...at };
  return { kind: 'keep' };
}
