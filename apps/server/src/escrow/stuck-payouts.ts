import { schema } from '@covenant/db';
import type { FeeBump, SignedTransaction, TxStatus } from '@covenant/escrow';
import { and, eq } from 'drizzle-orm';
import type { EscrowChain } from './escrow-chains.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { type PayoutRow, storedTransactionOf } from './escrow-rows.js';
import { unsignedPayoutOf } from './payout-variants.js';
import { raiseStaffAlert } from './staff-alerts.js';

/** Fee increases per payout before staff are asked to look: 1.125⁵ ≈ 1.8× the first fee, or the node's ask if higher. */
export const MAX_FEE_BUMPS = 5;

/**
 * Where a sent payout's transaction stands. When the current version is not mined but an earlier
 * one (which a higher-fee version replaced) is, that one is what the chain has: it becomes the
 * payout's transaction again, and its status is returned.
 */
export async function sentVersion(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  payout: PayoutRow,
): Promise<{ payout: PayoutRow; status: TxStatus }> {
  const current = storedTransactionOf(payout);
  if (!current) return { payout, status: { state: 'unknown' } };
  const status = await chain.adapter.confirmations(current.txRef);
  if (status.state === 'included') return { payout, status };
  for (const earlier of payout.replacedTransactions) {
    const earlierStatus = await chain.adapter.confirmations(earlier.txRef);
    if (earlierStatus.state !== 'included') continue;
    const replaced: schema.ReplacedTransaction[] = [
      ...payout.replacedTransactions.filter((version) => version.txRef !== earlier.txRef),
      current,
    ];
    const [adopted] = await deps.db
      .update(schema.escrowPayouts)
      .set({
        txRef: earlier.txRef,
        rawTransaction: earlier.rawTransaction,
        replacedTransactions: replaced,
        updatedAt: deps.now(),
      })
      .where(and(eq(schema.escrowPayouts.id, payout.id), eq(schema.escrowPayouts.txRef, current.txRef)))
      .returning();
    if (!adopted) break;
    deps.logger.info(
      { payoutId: payout.id, txRef: earlier.txRef },
      'an earlier version of the payout transaction was mined',
    );
    return { payout: adopted, status: earlierStatus };
  }
  return { payout, status };
}

/**
 * Keeps a sent payout that is not mined yet moving: the node lost it (dropped from the mempool, or
 * undone by a reorg) → the same bytes are sent again; it has waited `feeBumpAfterSeconds` → it is
 * replaced by the same transaction paying a higher fee, stored before it is sent, like the first.
 * After MAX_FEE_BUMPS increases staff are alerted and it waits.
 */
export async function keepPayoutMoving(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  payout: PayoutRow,
  status: TxStatus,
): Promise<void> {
  const current = storedTransactionOf(payout);
  if (!current || status.state === 'included') return;
  if (status.state === 'unknown') {
    const resent = await chain.adapter.broadcast(current).then(
      () => true,
      (error: unknown) => {
        deps.logger.warn({ err: error, payoutId: payout.id }, 're-broadcast failed');
        return false;
      },
    );
    if (!resent) return;
  }
  // A child paying for the payout (CPFP) that the node lost goes out again with its parent.
  const child = payout.feeBumpTransactions.at(-1);
  if (child && (await chain.adapter.confirmations(child.txRef)).state === 'unknown') {
    await chain.adapter
      .broadcast(child)
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, payoutId: payout.id }, 're-broadcast of the fee-bump child failed'),
      );
  }
  const waited = deps.now().getTime() - (payout.submittedAt ?? payout.updatedAt).getTime();
  if (waited < deps.feeBumpAfterSeconds * 1000) return;
  if (feeBumpsOf(payout) >= MAX_FEE_BUMPS) {
    await raiseStaffAlert(deps, {
      kind: 'payout_stuck',
      subject: payout.id,
      message: `A payout transaction is still not mined after ${MAX_FEE_BUMPS} fee increases`,
      details: { escrow_id: payout.escrowId, leg: payout.leg, transaction_hash: current.txRef },
    });
    return;
  }
  await chain.relayerTurn(() => replaceWithHigherFee(deps, chain, payout, current));
}

async function replaceWithHigherFee(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  payout: PayoutRow,
  current: SignedTransaction,
): Promise<void> {
  let bump: FeeBump;
  try {
    bump = await chain.adapter.bumpFee(unsignedPayoutOf(payout), current, feeBumpsOf(payout) + 1);
  } catch (error) {
    // Waiting past the bump delay with no way to push it (Bitcoin: its fee output was folded as
    // dust, or the ceiling is reached): staff look, as after MAX_FEE_BUMPS.
    const reason = error instanceof Error ? error.message : String(error);
    deps.logger.warn({ err: error, payoutId: payout.id }, 'could not raise the fee of a stuck payout');
    await raiseStaffAlert(deps, {
      kind: 'payout_stuck',
      subject: payout.id,
      message: 'A payout transaction is still not mined and its fee cannot be raised',
      details: {
        escrow_id: payout.escrowId,
        leg: payout.leg,
        transaction_hash: current.txRef,
        error: reason.slice(0, 500),
      },
    });
    return;
  }
  if (!bump.replaces) {
    await addFeeBumpChild(deps, chain, payout, current, bump.transaction);
    return;
  }
  const bumped = bump.transaction;
  await storeThenBroadcast(
    deps,
    chain,
    payout,
    current,
    {
      rawTransaction: bumped.rawTransaction,
      txRef: bumped.txRef,
      replacedTransactions: [...payout.replacedTransactions, current],
    },
    bumped,
    {
      sent: [{ replaced: current.txRef, txRef: bumped.txRef }, 'payout sent again with a higher fee'],
      // Refused when the earlier version was mined meanwhile: the next pass finds that one.
      failed: 'sending the higher-fee payout failed',
    },
  );
}

/**
 * Stores a new fee version of a sent payout, only while `current` is still the transaction it was
 * sent as (and its wait before the next bump restarts), then sends `transaction`: a crash between
 * the two re-sends what was stored.
 */
async function storeThenBroadcast(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  payout: PayoutRow,
  current: SignedTransaction,
  changes: Partial<typeof schema.escrowPayouts.$inferInsert>,
  transaction: SignedTransaction,
  log: { sent: [Record<string, string>, string]; failed: string },
): Promise<void> {
  const now = deps.now();
  const [stored] = await deps.db
    .update(schema.escrowPayouts)
    .set({ ...changes, submittedAt: now, updatedAt: now })
    .where(
      and(
        eq(schema.escrowPayouts.id, payout.id),
        eq(schema.escrowPayouts.status, 'submitted'),
        eq(schema.escrowPayouts.txRef, current.txRef),
      ),
    )
    .returning();
  if (!stored) return;
  deps.logger.info({ payoutId: payout.id, ...log.sent[0] }, log.sent[1]);
  await chain.adapter
    .broadcast(transaction)
    .catch((error: unknown) => deps.logger.warn({ err: error, payoutId: payout.id }, log.failed));
}

/** How many times the payout's fee was raised: replacements (Ethereum) or children (CPFP). */
export function feeBumpsOf(payout: PayoutRow): number {
  return payout.replacedTransactions.length + payout.feeBumpTransactions.length;
}

/**
 * A child paying for the payout's transaction (CPFP): stored on the payout before it is sent (a
 * crash re-sends it, `keepPayoutMoving`), the payout's own transaction unchanged. Its submission
 * time restarts the wait before the next bump.
 */
async function addFeeBumpChild(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  payout: PayoutRow,
  current: SignedTransaction,
  child: SignedTransaction,
): Promise<void> {
  await storeThenBroadcast(
    deps,
    chain,
    payout,
    current,
    {
      feeBumpTransactions: [
        ...payout.feeBumpTransactions,
        { txRef: child.txRef, rawTransaction: child.rawTransaction },
      ],
    },
    child,
    {
      sent: [
        { parent: current.txRef, child: child.txRef },
        'a child transaction pays a higher fee for the payout',
      ],
      failed: 'sending the fee-bump child failed',
    },
  );
}
