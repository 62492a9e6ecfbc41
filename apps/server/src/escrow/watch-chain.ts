import { schema } from '@covenant/db';
import {
  type DepositAddressIndex,
  type DepositMovement,
  pendingEntryUpdate,
  type WatchedLeg,
} from '@covenant/escrow';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { EscrowChain } from './escrow-chains.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { handleForeignDeposit } from './foreign-deposits.js';

/** Blocks read per pass, so a watcher that fell far behind catches up in steps. */
const maxBlocksPerPass = 2_000n;

/** Pending transactions whose status is read from the node at the same time. */
const statusReadsAtOnce = 8;

/**
 * One pass of the deposit watcher on a chain: notices a reorg at its cursor and steps back, reads
 * the new blocks' deposits to known escrows (one indexed lookup per batch of movements, whatever the
 * number of open escrows), records them in the legs' ledgers, then re-checks the depth of every
 * entry not yet confirmed, confirming those deep enough and marking those a reorg dropped. Returns
 * the escrows whose ledgers changed.
 */
export async function watchChain(deps: EscrowEngineDeps, chain: EscrowChain): Promise<string[]> {
  const { adapter } = chain;
  const changed = new Set<string>();
  const [cursor] = await deps.db
    .select()
    .from(schema.chainScanCursors)
    .where(eq(schema.chainScanCursors.chain, adapter.chain));
  if (cursor) {
    let from = cursor.scannedHeight;
    // The cursor's block and the tip are independent reads: asked together, one round trip.
    const [seenRef, tip] = await Promise.all([
      cursor.scannedBlockRef ? adapter.blockRefAt(from) : null,
      adapter.currentHeight(),
    ]);
    if (cursor.scannedBlockRef && seenRef !== cursor.scannedBlockRef) {
      // The block the cursor stands on is no longer canonical: step back by the confirmation depth
      // and read again; entries of dropped blocks are marked below.
      const back = BigInt(Math.max(adapter.confirmationPolicy.confirmations, 1));
      from = from > back ? from - back : 0n;
      deps.logger.warn(
        { chain: adapter.chain, height: cursor.scannedHeight.toString() },
        'reorg at the watcher cursor',
      );
    }
    if (tip > from || from !== cursor.scannedHeight) {
      const toHeight = tip - from > maxBlocksPerPass ? from + maxBlocksPerPass : tip;
      // The ref the cursor will stand on is read alongside the scan rather than after it. Read
      // before the scan's blocks, a reorg in between leaves the cursor on a ref that is no longer
      // canonical, and the next pass steps back and reads again; read after them, it is what the
      // watcher did before.
      const [result, toRef] = await Promise.all([
        adapter.scanDeposits({ fromHeight: from + 1n, toHeight }, depositIndex(deps, adapter.chain)),
        adapter.blockRefAt(toHeight),
      ]);
      for (const movement of result.movements) {
        if (await recordDeposit(deps, chain, movement)) changed.add(movement.watched.escrowId);
      }
      await deps.db
        .update(schema.chainScanCursors)
        .set({
          scannedHeight: result.scannedTo,
          scannedBlockRef: result.scannedTo === toHeight ? toRef : await adapter.blockRefAt(result.scannedTo),
          updatedAt: deps.now(),
        })
        .where(eq(schema.chainScanCursors.chain, adapter.chain));
    }
  }
  if (cursor && adapter.scanMempool) {
    // Deposits not in a block yet: shown as pending at once, with no block until one includes them.
    const seen = await adapter.scanMempool(depositIndex(deps, adapter.chain));
    for (const movement of seen) {
      if (await recordDeposit(deps, chain, { ...movement, blockRef: null, height: null })) {
        changed.add(movement.watched.escrowId);
      }
    }
  }
  for (const escrowId of await confirmPendingEntries(deps, chain)) changed.add(escrowId);
  return [...changed];
}

/** A deposit as the watcher records it: from a block, or from the mempool (no block yet). */
type SeenDeposit = Omit<DepositMovement, 'blockRef' | 'height'> & {
  blockRef: string | null;
  height: bigint | null;
};

/** The (chain, deposit_address) index of escrow_legs as the adapter's lookup. */
export function depositIndex(deps: EscrowEngineDeps, chain: string): DepositAddressIndex {
  return {
    async match(addresses) {
      if (addresses.length === 0) return new Map();
      const rows = await deps.db
        .select({
          escrowId: schema.escrowLegs.escrowId,
          leg: schema.escrowLegs.leg,
          depositAddress: schema.escrowLegs.depositAddress,
          tokenAddress: schema.escrowLegs.tokenAddress,
        })
        .from(schema.escrowLegs)
        .where(
          and(
            eq(schema.escrowLegs.chain, chain),
            inArray(schema.escrowLegs.depositAddress, [...new Set(addresses)]),
          ),
        );
      return new Map<string, WatchedLeg>(rows.map((row) => [row.depositAddress, row]));
    },
  };
}

/**
 * Records a deposit in its leg's ledger (pending until deep enough). A movement seen again after a
 * reorg dropped it comes back to life with its new block. A token other than the leg's is not the
 * leg's money: it goes back to the party who sent it, or waits for staff (`handleForeignDeposit`).
 */
export async function recordDeposit(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  movement: SeenDeposit,
): Promise<boolean> {
  const { watched } = movement;
  const sameToken =
    (movement.tokenAddress ?? '').toLowerCase() === (watched.tokenAddress ?? '').toLowerCase();
  if (!sameToken) {
    await handleForeignDeposit(deps, chain, movement);
    return false;
  }
  const now = deps.now();
  const inserted = await deps.db
    .insert(schema.escrowLedgerEntries)
    .values({
      escrowId: watched.escrowId,
      leg: watched.leg,
      chain: chain.adapter.chain,
      kind: 'deposit',
      amount: movement.amount.toString(),
      txRef: movement.txRef,
      position: movement.position,
      counterpartyAddress: movement.from,
      blockRef: movement.blockRef,
      blockHeight: movement.height,
      confirmations: 0,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [
        schema.escrowLedgerEntries.chain,
        schema.escrowLedgerEntries.txRef,
        schema.escrowLedgerEntries.position,
        schema.escrowLedgerEntries.kind,
      ],
      set: { status: 'pending', blockRef: movement.blockRef, blockHeight: movement.height, updatedAt: now },
      setWhere: sql`${schema.escrowLedgerEntries.status} = 'reorged'`,
    })
    .returning({ id: schema.escrowLedgerEntries.id });
  return inserted.length > 0;
}

/**
 * Re-reads the depth of every pending entry of the chain (`pendingEntryUpdate`): deep enough
 * confirms it; gone or moved to another block is a reorg; a mempool entry stays pending while its
 * transaction waits there and takes its block once mined.
 */
async function confirmPendingEntries(deps: EscrowEngineDeps, chain: EscrowChain): Promise<string[]> {
  const { adapter } = chain;
  const pending = await deps.db
    .select()
    .from(schema.escrowLedgerEntries)
    .where(
      and(
        eq(schema.escrowLedgerEntries.chain, adapter.chain),
        eq(schema.escrowLedgerEntries.status, 'pending'),
      ),
    );
  const changed = new Set<string>();
  // Each transaction's status once, a few at a time rather than one after another.
  const txRefs = [...new Set(pending.map((entry) => entry.txRef))];
  const statuses = new Map(
    await mapConcurrently(
      txRefs,
      statusReadsAtOnce,
      async (txRef) => [txRef, await adapter.confirmations(txRef)] as const,
    ),
  );
  for (const entry of pending) {
    const status = statuses.get(entry.txRef)!;
    const update = pendingEntryUpdate(entry, status, adapter.confirmationPolicy);
    if (update.kind === 'keep') continue;
    const now = deps.now();
    if (update.kind === 'reorged') {
      await deps.db
        .update(schema.escrowLedgerEntries)
        .set({ status: 'reorged', confirmations: 0, updatedAt: now })
        .where(eq(schema.escrowLedgerEntries.id, entry.id));
    } else {
      await deps.db
        .update(schema.escrowLedgerEntries)
        .set({
          confirmations: update.confirmations,
          status: update.kind,
          // A mempool entry takes its block; an entry that had one keeps it (the same, or it was reorged).
          ...(entry.blockRef === null ? { blockRef: update.blockRef, blockHeight: update.height } : {}),
          updatedAt: now,
        })
        .where(eq(schema.escrowLedgerEntries.id, entry.id));
    }
    changed.add(entry.escrowId);
  }
  return [...changed];
}

/** `each` over `items`, at most `limit` at a time; the results in the items' order. */
async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  each: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await each(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
