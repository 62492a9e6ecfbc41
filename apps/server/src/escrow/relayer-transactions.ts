import { schema } from '@covenant/db';
import type { Leg, SignedTransaction } from '@covenant/escrow';
import { and, eq, inArray } from 'drizzle-orm';
import type { EscrowChain } from './escrow-chains.js';
import { crashIfAt } from './escrow-crash-point.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { foreignReturnFailed, foreignReturnMined } from './foreign-deposit-events.js';
import {
  keepSentTransactionMoving,
  type SentTransactionStore,
  sentVersionOf,
  waitedPastBump,
} from './stuck-payouts.js';

export type RelayerTransactionRow = typeof schema.escrowRelayerTransactions.$inferSelect;

/** What a relayer transaction is for (see `escrowRelayerTransactions`). */
export interface RelayerWork {
  kind: schema.RelayerTransactionKind;
  subject: string;
  escrowId: string | null;
  leg: Leg;
  depositAddress: string;
}

const live = ['submitting', 'submitted'] as const;

/** The error of a relayer transaction mined and reverted: doing the same again fails the same way unless something changed. */
export const revertedOnChain = 'reverted on-chain';

const described: Record<schema.RelayerTransactionKind, string> = {
  deployment: 'An escrow deployment transaction',
  sweep: 'A sweep of a late deposit',
  foreign_asset_return: 'The return of a wrong-token deposit',
};

/**
 * Signs, stores and sends one of the relayer's transactions that is not a payout, in the relayer's
 * turn, which ends once it is sent: the engine's passes follow it from there
 * (`followRelayerTransactions`). Nothing is signed while the same work already has a transaction
 * on its way (or, except for a sweep, done): a deposit address is deployed once, a wrong-token
 * deposit returned once; a leg is swept again only for money that arrived after its last sweep.
 * `sign` gives null when there is nothing to send. The stored row, or null when none was sent.
 */
export async function sendRelayerTransaction(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  work: RelayerWork,
  sign: () => Promise<SignedTransaction | null>,
): Promise<RelayerTransactionRow | null> {
  return chain.relayerTurn(async () => {
    const existing = await deps.db
      .select()
      .from(schema.escrowRelayerTransactions)
      .where(
        and(
          eq(schema.escrowRelayerTransactions.chain, chain.adapter.chain),
          eq(schema.escrowRelayerTransactions.kind, work.kind),
          eq(schema.escrowRelayerTransactions.subject, work.subject),
          inArray(
            schema.escrowRelayerTransactions.status,
            work.kind === 'sweep' ? [...live] : [...live, 'confirmed'],
          ),
        ),
      );
    if (existing.length > 0) return null;
    const signed = await sign();
    if (!signed) return null;
    const now = deps.now();
    const [stored] = await deps.db
      .insert(schema.escrowRelayerTransactions)
      .values({
        chain: chain.adapter.chain,
        kind: work.kind,
        subject: work.subject,
        escrowId: work.escrowId,
        leg: work.leg,
        depositAddress: work.depositAddress,
        status: 'submitting',
        rawTransaction: signed.rawTransaction,
        txRef: signed.txRef,
        submittedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!stored) return null;
    await crashIfAt(
      deps.crashAt,
      'after-relayer-store',
      `${work.kind} ${stored.id} for ${work.subject} on ${stored.chain} stored, not broadcast`,
    );
    return broadcastStored(deps, chain, stored);
  });
}

/**
 * Sends a stored transaction and records it as sent. When the node refuses it and has never seen
 * it, it can never be sent (its nonce went to another transaction): it fails, and the work is done
 * again where it can be (a deployment by the next opening of the escrow, a sweep by the next pass).
 */
async function broadcastStored(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  row: RelayerTransactionRow,
): Promise<RelayerTransactionRow> {
  try {
    await chain.adapter.broadcast({ rawTransaction: row.rawTransaction, txRef: row.txRef });
  } catch (error) {
    deps.logger.warn(
      { err: error, relayerTransactionId: row.id, kind: row.kind },
      'broadcast failed; the next pass checks the chain and retries',
    );
    return row;
  }
  const [sent] = await deps.db
    .update(schema.escrowRelayerTransactions)
    .set({ status: 'submitted', updatedAt: deps.now() })
    .where(
      and(
        eq(schema.escrowRelayerTransactions.id, row.id),
        eq(schema.escrowRelayerTransactions.status, 'submitting'),
      ),
    )
    .returning();
  return sent ?? row;
}

/** Relayer transactions as the shared fee-bump rules see them (`stuck-payouts.ts`). */
function relayerStore(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
): SentTransactionStore<RelayerTransactionRow> {
  return {
    async update(row, currentTxRef, changes, whileSent) {
      const [stored] = await deps.db
        .update(schema.escrowRelayerTransactions)
        // Every change sets a version's fields, never clears them.
        .set(changes as Partial<typeof schema.escrowRelayerTransactions.$inferInsert>)
        .where(
          and(
            eq(schema.escrowRelayerTransactions.id, row.id),
            eq(schema.escrowRelayerTransactions.txRef, currentTxRef),
            ...(whileSent ? [eq(schema.escrowRelayerTransactions.status, 'submitted' as const)] : []),
          ),
        )
        .returning();
      return stored ?? null;
    },
    async bumpFee(_row, current, attempt) {
      const bump = chain.adapter.bumpRelayerTransaction;
      if (!bump) throw new Error(`the fee of a ${chain.adapter.chain} relayer transaction cannot be raised`);
      return { replaces: true, transaction: await bump.call(chain.adapter, current, attempt) };
    },
    logContext: (row) => ({ relayerTransactionId: row.id, kind: row.kind }),
    stuck: {
      kind: 'relayer_transaction_stuck',
      what: (row) => described[row.kind],
      details: (row, txRef) => ({
        kind: row.kind,
        escrow_id: row.escrowId,
        leg: row.leg,
        deposit_address: row.depositAddress,
        transaction_hash: txRef,
      }),
    },
  };
}

/**
 * Follows the relayer's transactions that are on their way, each pass: one stored but not sent (a
 * crash, a failed broadcast) is sent; one mined is done — a deployment once the escrow's code is at
 * its address, a sweep once its movements are in the leg's ledger (pending: the watcher confirms
 * them), a return once mined without reverting; one still waiting is sent again or replaced at a
 * higher fee by the rules of payouts (`keepSentTransactionMoving`). A chain with no fee to raise
 * (Solana: a transaction lives until its blockhash expires, a minute or so) fails one still unknown
 * after the bump delay, and the work is done again. The escrows whose ledgers changed.
 */
export async function followRelayerTransactions(deps: EscrowEngineDeps): Promise<string[]> {
  const rows = await deps.db
    .select()
    .from(schema.escrowRelayerTransactions)
    .where(inArray(schema.escrowRelayerTransactions.status, [...live]));
  const touched = new Set<string>();
  for (const row of rows) {
    const chain = deps.chains.get(row.chain);
    if (!chain) continue;
    if (row.status === 'submitting') {
      const sent = await broadcastStored(deps, chain, row);
      if (sent.status === 'submitting') await failIfNeverSent(deps, chain, sent, touched);
      continue;
    }
    const store = relayerStore(deps, chain);
    const { row: current, status } = await sentVersionOf(deps, chain, row, store);
    if (status.state !== 'included') {
      if (
        !chain.adapter.bumpRelayerTransaction &&
        status.state === 'unknown' &&
        waitedPastBump(deps, current)
      ) {
        await fail(deps, current, 'never mined, and its lifetime ended', touched);
        continue;
      }
      await keepSentTransactionMoving(deps, chain, current, status, store);
      continue;
    }
    await settle(deps, chain, current, status.confirmations, touched);
  }
  return [...touched];
}

/** A mined relayer transaction: its outcome recorded. */
async function settle(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  row: RelayerTransactionRow,
  confirmations: number,
  touched: Set<string>,
): Promise<void> {
  if (row.kind === 'deployment') {
    if (await chain.adapter.isDeployed?.(row.depositAddress)) {
      await markConfirmed(deps, row);
      return;
    }
    await fail(deps, row, 'mined without deploying the escrow', touched);
    return;
  }
  const [leg] = row.escrowId
    ? await deps.db
        .select()
        .from(schema.escrowLegs)
        .where(and(eq(schema.escrowLegs.escrowId, row.escrowId), eq(schema.escrowLegs.leg, row.leg)))
    : [];
  if (!leg) return;
  const { reverted, movements } = await chain.adapter.outgoingMovements(row.txRef, leg);
  if (reverted) {
    await fail(deps, row, revertedOnChain, touched);
    return;
  }
  if (row.kind === 'sweep') {
    const now = deps.now();
    const sweeps = movements.filter((movement) => movement.kind === 'sweep');
    if (sweeps.length > 0) {
      await deps.db
        .insert(schema.escrowLedgerEntries)
        .values(
          sweeps.map((movement) => ({
            escrowId: leg.escrowId,
            leg: leg.leg,
            chain: leg.chain,
            kind: 'sweep' as const,
            amount: movement.amount.toString(),
            txRef: row.txRef,
            position: movement.position,
            counterpartyAddress: movement.to,
            blockRef: movement.blockRef,
            blockHeight: movement.height,
            confirmations,
            status: 'pending' as const,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .onConflictDoNothing();
      deps.logger.info(
        { escrowId: leg.escrowId, leg: leg.leg, txRef: row.txRef },
        'late deposit swept back to the depositor',
      );
    }
    touched.add(leg.escrowId);
  }
  await markConfirmed(deps, row);
  if (row.kind === 'foreign_asset_return') await foreignReturnMined(deps, row);
}

async function markConfirmed(deps: EscrowEngineDeps, row: RelayerTransactionRow): Promise<void> {
  const now = deps.now();
  await deps.db
    .update(schema.escrowRelayerTransactions)
    .set({ status: 'confirmed', confirmedAt: now, updatedAt: now })
    .where(
      and(
        eq(schema.escrowRelayerTransactions.id, row.id),
        eq(schema.escrowRelayerTransactions.status, 'submitted'),
      ),
    );
}

/** A stored transaction the node refuses and has never seen: it fails (a deployment another sent counts as done). */
async function failIfNeverSent(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  row: RelayerTransactionRow,
  touched: Set<string>,
): Promise<void> {
  if ((await chain.adapter.confirmations(row.txRef)).state !== 'unknown') return;
  if (row.kind === 'deployment' && (await chain.adapter.isDeployed?.(row.depositAddress))) {
    await deps.db
      .update(schema.escrowRelayerTransactions)
      .set({ status: 'confirmed', confirmedAt: deps.now(), updatedAt: deps.now() })
      .where(
        and(
          eq(schema.escrowRelayerTransactions.id, row.id),
          eq(schema.escrowRelayerTransactions.status, 'submitting'),
        ),
      );
    return;
  }
  await fail(deps, row, 'refused by the node and never sent', touched);
}

/**
 * A relayer transaction that did not do its work. A sweep is tried again (its escrow is touched); a
 * deployment waits for the next opening of the escrow; a wrong-token return is for staff and the
 * parties to hear of (`foreignReturnFailed`).
 */
async function fail(
  deps: EscrowEngineDeps,
  row: RelayerTransactionRow,
  error: string,
  touched: Set<string>,
): Promise<void> {
  const [failed] = await deps.db
    .update(schema.escrowRelayerTransactions)
    .set({ status: 'failed', error, updatedAt: deps.now() })
    .where(
      and(
        eq(schema.escrowRelayerTransactions.id, row.id),
        inArray(schema.escrowRelayerTransactions.status, [...live]),
      ),
    )
    .returning({ id: schema.escrowRelayerTransactions.id });
  if (!failed) return;
  deps.logger.warn(
    { relayerTransactionId: row.id, kind: row.kind, txRef: row.txRef, error },
    'relayer transaction failed',
  );
  if (row.kind === 'sweep' && row.escrowId) {
    touched.add(row.escrowId);
    return;
  }
  if (row.kind === 'foreign_asset_return') {
    await foreignReturnFailed(deps, row, { error, reverted: error === revertedOnChain });
  }
}
