import { schema } from '@covenant/db';
import type { FeeBump, SignedTransaction, TxStatus } from '@covenant/escrow';
import { and, eq } from 'drizzle-orm';
import type { EscrowChain } from './escrow-chains.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import type { PayoutRow } from './escrow-rows.js';
import { unsignedPayoutOf } from './payout-variants.js';
import { raiseStaffAlert } from './staff-alerts.js';

/** Fee increases per payout before staff are asked to look: 1.125⁵ ≈ 1.8× the first fee, or the node's ask if higher. */
export const MAX_FEE_BUMPS = 5;

/**
 * A sent transaction the engine keeps moving: a payout's, or another of the relayer's (a
 * deployment, a sweep, a wrong-token return). The same rules apply to both; only where it is stored
 * and how its fee is raised differ (`SentTransactionStore`).
 */
export interface SentTransactionRow {
  id: string;
  rawTransaction: string | null;
  txRef: string | null;
  replacedTransactions: schema.ReplacedTransaction[];
  feeBumpTransactions: schema.ReplacedTransaction[];
  submittedAt: Date | null;
  updatedAt: Date;
}

/** Where a kind of sent transaction is stored, how its fee is raised, and how it is named to staff. */
export interface SentTransactionStore<Row extends SentTransactionRow> {
  /**
   * Stores `changes` while the row's current transaction is still `currentTxRef` (and, with
   * `whileSent`, the row is still waiting to be mined); the stored row, or null when it moved on.
   */
  update(
    row: Row,
    currentTxRef: string,
    changes: Partial<SentTransactionRow>,
    whileSent: boolean,
  ): Promise<Row | null>;
  bumpFee(row: Row, current: SignedTransaction, attempt: number): Promise<FeeBump>;
  /** What the log names it by (`{ payoutId }`). */
  logContext(row: Row): Record<string, string>;
  /** The staff alert when it stays unmined: its kind, what it is ("A payout transaction"), its details. */
  stuck: { kind: string; what(row: Row): string; details(row: Row, txRef: string): Record<string, unknown> };
}

/** Payouts' transactions, in escrow_payouts. */
function payoutStore(deps: EscrowEngineDeps, chain: EscrowChain): SentTransactionStore<PayoutRow> {
  return {
    async update(payout, currentTxRef, changes, whileSent) {
      const [stored] = await deps.db
        .update(schema.escrowPayouts)
        .set(changes)
        .where(
          and(
            eq(schema.escrowPayouts.id, payout.id),
            eq(schema.escrowPayouts.txRef, currentTxRef),
            ...(whileSent ? [eq(schema.escrowPayouts.status, 'submitted' as const)] : []),
          ),
        )
        .returning();
      return stored ?? null;
    },
    bumpFee: (payout, current, attempt) => chain.adapter.bumpFee(unsignedPayoutOf(payout), current, attempt),
    logContext: (payout) => ({ payoutId: payout.id }),
    stuck: {
      kind: 'payout_stuck',
      what: () => 'A payout transaction',
      details: (payout, txRef) => ({ escrow_id: payout.escrowId, leg: payout.leg, transaction_hash: txRef }),
    },
  };
}

/**
 * Where a sent payout's transaction stands. When the current version is not mined but an earlier
 * one (which a higher-fee version replaced) is, that one is what the chain has: it becomes the
 * payout's transaction again, and its status is returned.
 */
export function sentVersion(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  payout: PayoutRow,
): Promise<{ payout: PayoutRow; status: TxStatus }> {
  return sentVersionOf(deps, chain, payout, payoutStore(deps, chain)).then(({ row, status }) => ({
    payout: row,
    status,
  }));
}

/** Keeps a sent payout that is not mined yet moving (`keepSentTransactionMoving`). */
export function keepPayoutMoving(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  payout: PayoutRow,
  status: TxStatus,
): Promise<void> {
  return keepSentTransactionMoving(deps, chain, payout, status, payoutStore(deps, chain));
}

/** How many times the payout's fee was raised: replacements (Ethereum) or children (CPFP). */
export function feeBumpsOf(
  row: Pick<SentTransactionRow, 'replacedTransactions' | 'feeBumpTransactions'>,
): number {
  return row.replacedTransactions.length + row.feeBumpTransactions.length;
}

/**
 * Where a sent transaction stands. When the current version is not mined but an earlier one (which
 * a higher-fee version replaced) is, that one is what the chain has: it becomes the row's
 * transaction again, and its status is returned.
 */
export async function sentVersionOf<Row extends SentTransactionRow>(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  row: Row,
  store: SentTransactionStore<Row>,
): Promise<{ row: Row; status: TxStatus }> {
  const current = storedOf(row);
  // A transaction someone else sent (a refund after the deadline: `adoptDeadlineRefund`) is followed
  // by its hash alone; with no bytes of ours, it has no earlier versions and is never sent again.
  if (!current)
    return { row, status: row.txRef ? await chain.adapter.confirmations(row.txRef) : { state: 'unknown' } };
  const status = await chain.adapter.confirmations(current.txRef);
  if (status.state === 'included') return { row, status };
  for (const earlier of row.replacedTransactions) {
    const earlierStatus = await chain.adapter.confirmations(earlier.txRef);
    if (earlierStatus.state !== 'included') continue;
    const replaced: schema.ReplacedTransaction[] = [
      ...row.replacedTransactions.filter((version) => version.txRef !== earlier.txRef),
      current,
    ];
    const adopted = await store.update(
      row,
      current.txRef,
      {
        txRef: earlier.txRef,
        rawTransaction: earlier.rawTransaction,
        replacedTransactions: replaced,
        updatedAt: deps.now(),
      },
      false,
    );
    if (!adopted) break;
    deps.logger.info(
      { ...store.logContext(row), txRef: earlier.txRef },
      'an earlier version of the transaction was mined',
    );
    return { row: adopted, status: earlierStatus };
  }
  return { row, status };
}

/**
 * Keeps a sent transaction that is not mined yet moving: the node lost it (dropped from the
 * mempool, or undone by a reorg) → the same bytes are sent again; it has waited
 * `feeBumpAfterSeconds` → it is replaced by the same transaction paying a higher fee, stored before
 * it is sent, like the first. After MAX_FEE_BUMPS increases staff are alerted and it waits.
 */
export async function keepSentTransactionMoving<Row extends SentTransactionRow>(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  row: Row,
  status: TxStatus,
  store: SentTransactionStore<Row>,
): Promise<void> {
  const current = storedOf(row);
  if (!current || status.state === 'included') return;
  if (status.state === 'unknown') {
    let refusal: unknown;
    const resent = await chain.adapter.broadcast(current).then(
      () => true,
      (error: unknown) => {
        deps.logger.warn({ err: error, ...store.logContext(row) }, 're-broadcast failed');
        refusal = error;
        return false;
      },
    );
    if (!resent) {
      // Lost by the node and refused when sent again (Bitcoin: evicted for a fee now below the node's
      // minimum; Ethereum: the relayer cannot pay its gas): it is tried again each pass, and once it
      // has waited past the bump delay staff are told, as for one that stays unmined.
      if (waitedPastBump(deps, row)) {
        const reason = refusal instanceof Error ? refusal.message : String(refusal);
        await raiseStaffAlert(deps, {
          kind: store.stuck.kind,
          subject: row.id,
          message: `${store.stuck.what(row)} is no longer held by the node, which refuses it when sent again`,
          details: { ...store.stuck.details(row, current.txRef), error: reason.slice(0, 500) },
        });
      }
      return;
    }
  }
  // A child paying for the transaction (CPFP) that the node lost goes out again with its parent.
  const child = row.feeBumpTransactions.at(-1);
  if (child && (await chain.adapter.confirmations(child.txRef)).state === 'unknown') {
    await chain.adapter
      .broadcast(child)
      .catch((error: unknown) =>
        deps.logger.warn(
          { err: error, ...store.logContext(row) },
          're-broadcast of the fee-bump child failed',
        ),
      );
  }
  if (!waitedPastBump(deps, row)) return;
  if (feeBumpsOf(row) >= MAX_FEE_BUMPS) {
    await raiseStaffAlert(deps, {
      kind: store.stuck.kind,
      subject: row.id,
      message: `${store.stuck.what(row)} is still not mined after ${MAX_FEE_BUMPS} fee increases`,
      details: store.stuck.details(row, current.txRef),
    });
    return;
  }
  await chain.relayerTurn(() => replaceWithHigherFee(deps, chain, row, current, store));
}

/** Whether the row's current version has waited `feeBumpAfterSeconds` unmined. */
export function waitedPastBump(deps: EscrowEngineDeps, row: SentTransactionRow): boolean {
  const waited = deps.now().getTime() - (row.submittedAt ?? row.updatedAt).getTime();
  return waited >= deps.feeBumpAfterSeconds * 1000;
}

function storedOf(row: SentTransactionRow): SignedTransaction | null {
  if (!row.rawTransaction || !row.txRef) return null;
  return { rawTransaction: row.rawTransaction, txRef: row.txRef };
}

async function replaceWithHigherFee<Row extends SentTransactionRow>(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  row: Row,
  current: SignedTransaction,
  store: SentTransactionStore<Row>,
): Promise<void> {
  let bump: FeeBump;
  try {
    bump = await store.bumpFee(row, current, feeBumpsOf(row) + 1);
  } catch (error) {
    // Waiting past the bump delay with no way to push it (Bitcoin: its fee output was folded as
    // dust, or the ceiling is reached): staff look, as after MAX_FEE_BUMPS.
    const reason = error instanceof Error ? error.message : String(error);
    deps.logger.warn(
      { err: error, ...store.logContext(row) },
      'could not raise the fee of a stuck transaction',
    );
    await raiseStaffAlert(deps, {
      kind: store.stuck.kind,
      subject: row.id,
      message: `${store.stuck.what(row)} is still not mined and its fee cannot be raised`,
      details: { ...store.stuck.details(row, current.txRef), error: reason.slice(0, 500) },
    });
    return;
  }
  if (!bump.replaces) {
    await addFeeBumpChild(deps, chain, row, current, bump.transaction, store);
    return;
  }
  const bumped = bump.transaction;
  await storeThenBroadcast(
    deps,
    chain,
    row,
    current,
    {
      rawTransaction: bumped.rawTransaction,
      txRef: bumped.txRef,
      replacedTransactions: [...row.replacedTransactions, current],
    },
    bumped,
    store,
    {
      sent: [{ replaced: current.txRef, txRef: bumped.txRef }, 'transaction sent again with a higher fee'],
      // Refused when the earlier version was mined meanwhile: the next pass finds that one.
      failed: 'sending the higher-fee transaction failed',
    },
  );
}

/**
 * Stores a new fee version of a sent transaction, only while `current` is still the transaction it
 * was sent as (and its wait before the next bump restarts), then sends `transaction`: a crash
 * between the two re-sends what was stored.
 */
async function storeThenBroadcast<Row extends SentTransactionRow>(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  row: Row,
  current: SignedTransaction,
  changes: Partial<SentTransactionRow>,
  transaction: SignedTransaction,
  store: SentTransactionStore<Row>,
  log: { sent: [Record<string, string>, string]; failed: string },
): Promise<void> {
  const now = deps.now();
  const stored = await store.update(
    row,
    current.txRef,
    { ...changes, submittedAt: now, updatedAt: now },
    true,
  );
  if (!stored) return;
  deps.logger.info({ ...store.logContext(row), ...log.sent[0] }, log.sent[1]);
  await chain.adapter
    .broadcast(transaction)
    .catch((error: unknown) => deps.logger.warn({ err: error, ...store.logContext(row) }, log.failed));
}

/**
 * A child paying for the transaction (CPFP): stored on the row before it is sent (a crash re-sends
 * it, `keepSentTransactionMoving`), the row's own transaction unchanged. Its submission time
 * restarts the wait before the next bump.
 */
async function addFeeBumpChild<Row extends SentTransactionRow>(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  row: Row,
  current: SignedTransaction,
  child: SignedTransaction,
  store: SentTransactionStore<Row>,
): Promise<void> {
  await storeThenBroadcast(
    deps,
    chain,
    row,
    current,
    {
      feeBumpTransactions: [
        ...row.feeBumpTransactions,
        { txRef: child.txRef, rawTransaction: child.rawTransaction },
      ],
    },
    child,
    store,
    {
      sent: [
        { parent: current.txRef, child: child.txRef },
        'a child transaction pays a higher fee for the transaction',
      ],
      failed: 'sending the fee-bump child failed',
    },
  );
}
