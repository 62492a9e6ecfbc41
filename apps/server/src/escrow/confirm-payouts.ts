import { schema } from '@covenant/db';
import { type Chain, nextDealStatus } from '@covenant/domain';
import { meetsPolicy, reconcileLeg } from '@covenant/escrow';
import { and, eq, inArray } from 'drizzle-orm';
import type { Transaction } from '../deals/append-deal-event.js';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { enqueueWebhookEvent } from '../webhooks/enqueue-webhook-event.js';
import { crashIfAt } from './escrow-crash-point.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import {
  depositOutputsOf,
  type LegRow,
  ledgerEntryOf,
  loadEscrowBooks,
  plannedDepositsOf,
  settlementTransactionsOf,
} from './escrow-rows.js';
import { refreshEscrows } from './refresh-legs.js';
import { rebuildRevertedPayout } from './renew-expired-payout.js';
import { raiseStaffAlert, resolveStaffAlert } from './staff-alerts.js';
import { keepPayoutMoving, sentVersion } from './stuck-payouts.js';
import { markTravelPaid } from './travel-payouts.js';

/**
 * Follows sent payouts until they are deep enough (one lost by the node is sent again; one that waits
 * too long is replaced by a higher fee, `stuck-payouts.ts`): their movements (payout, fee, refund) go into
 * the leg's ledger as the chain logged them, the leg's books are reconciled, and when every live
 * payout of an escrow is confirmed the escrow is settled or refunded — a deal's own settlement
 * completes the deal (`release`) and sends `deal.completed` with the transactions.
 */
export async function confirmPayouts(deps: EscrowEngineDeps): Promise<string[]> {
  const submitted = await deps.db
    .select({ payout: schema.escrowPayouts, leg: schema.escrowLegs })
    .from(schema.escrowPayouts)
    .innerJoin(
      schema.escrowLegs,
      and(
        eq(schema.escrowLegs.escrowId, schema.escrowPayouts.escrowId),
        eq(schema.escrowLegs.leg, schema.escrowPayouts.leg),
      ),
    )
    .where(eq(schema.escrowPayouts.status, 'submitted'));
  const touched = new Set<string>();
  for (const row of submitted) {
    const chain = deps.chains.get(row.payout.chain);
    if (!chain || !row.payout.txRef) continue;
    const { payout, status } = await sentVersion(deps, chain, row.payout);
    const { leg } = row;
    const txRef = payout.txRef;
    if (status.state !== 'included' || !txRef) {
      await keepPayoutMoving(deps, chain, payout, status);
      continue;
    }
    if (!meetsPolicy(chain.adapter.confirmationPolicy, status)) continue;
    const { reverted, movements } = await chain.adapter.outgoingMovements(txRef, leg);
    const now = deps.now();
    if (reverted) {
      // Solana: nothing moved and the nonce is used up; built again, the payout can still go.
      if (chain.adapter.rebuildsRevertedPayouts) {
        const rebuilt = await rebuildRevertedPayout(deps, payout);
        if (rebuilt === 'renewed') touched.add(payout.escrowId);
        if (rebuilt !== 'refused') continue;
      }
      await deps.db
        .update(schema.escrowPayouts)
        .set({ status: 'failed', error: 'reverted on-chain', updatedAt: now })
        .where(eq(schema.escrowPayouts.id, payout.id));
      await raiseStaffAlert(deps, {
        kind: 'payout_reverted',
        subject: payout.id,
        message: 'A payout transaction reverted on-chain',
        details: { escrow_id: payout.escrowId, leg: payout.leg, transaction_hash: txRef },
      });
      continue;
    }
    if (movements.length > 0) {
      await deps.db
        .insert(schema.escrowLedgerEntries)
        .values(
          movements.map((movement) => ({
            escrowId: payout.escrowId,
            leg: payout.leg,
            chain: payout.chain,
            // What a travel payout pays its payee is travel, not the leg's settlement.
            kind:
              payout.source === 'travel' && movement.kind === 'payout' ? ('travel' as const) : movement.kind,
            amount: movement.amount.toString(),
            txRef,
            position: movement.position,
            counterpartyAddress: movement.to === '' ? null : movement.to,
            blockRef: movement.blockRef,
            blockHeight: movement.height,
            confirmations: status.confirmations,
            status: 'confirmed' as const,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .onConflictDoNothing();
    }
    await crashIfAt(deps.crashAt, 'before-confirmation', `payout ${payout.id} in the ledger, not confirmed`);
    await deps.db.transaction(async (tx) => {
      // A travel payout's item is paid in the same transaction, the deal locked first as wherever
      // travel is decided.
      const dealId = payout.source === 'travel' ? await lockDealOfEscrow(tx, payout.escrowId) : null;
      await tx
        .update(schema.escrowPayouts)
        .set({ status: 'confirmed', confirmedAt: now, updatedAt: now })
        .where(eq(schema.escrowPayouts.id, payout.id));
      if (dealId) await markTravelPaid(tx, dealId, payout, now);
    });
    // A refusal to relay it earlier needs nobody any more.
    await resolveStaffAlert(deps, { kind: 'payout_broadcast_refused', subject: payout.id });
    touched.add(payout.escrowId);
  }
  await refreshEscrows(deps, [...touched]);
  for (const escrowId of touched) {
    await reconcileEscrow(deps, escrowId);
    await closeEscrowIfDone(deps, escrowId);
  }
  return [...touched];
}

/** Checks each settled leg's books (deposits = payouts + fees + refunds + sweeps + network fees); a mismatch alerts staff. */
export async function reconcileEscrow(deps: EscrowEngineDeps, escrowId: string): Promise<void> {
  const books = await loadEscrowBooks(deps.db, escrowId);
  for (const row of books.legs) {
    // A UTXO chain's payouts name the outputs they spend: those none spent may be left on a settled leg.
    const utxo = deps.chains.get(row.chain)?.adapter.maxPayoutInputs !== undefined;
    const mismatch = reconcileLeg({
      escrowId,
      leg: row.leg,
      chain: row.chain as Chain,
      state: row.state,
      requiredConfirmations: row.requiredConfirmations,
      ledger: books.ledger(row.leg).map(ledgerEntryOf),
      ...(utxo ? { unspentDeposits: unspentDepositsOf(books, row) } : {}),
    });
    if (mismatch) {
      await raiseStaffAlert(deps, {
        kind: 'escrow_reconciliation',
        subject: `${escrowId}:${row.leg}`,
        message: `The ${row.leg} leg's books do not balance: ${mismatch.problem.replaceAll('_', ' ')}`,
        details: { escrow_id: escrowId, leg: row.leg, problem: mismatch.problem, ...mismatch.details },
      });
    }
  }
}

/** The confirmed deposit outputs of a leg that no live payout (its own, travel, late-deposit returns) spends. */
function unspentDepositsOf(books: Awaited<ReturnType<typeof loadEscrowBooks>>, row: LegRow): bigint {
  const payouts = [
    books.payout(row.leg),
    ...books.travelPayouts(row.leg),
    ...books.lateDepositPayouts(row.leg),
  ];
  const spent = new Set(
    payouts
      .filter((payout) => payout !== null && payout.status !== 'failed')
      .flatMap((payout) =>
        plannedDepositsOf(payout!).map((deposit) => `${deposit.txRef}:${deposit.position}`),
      ),
  );
  return depositOutputsOf(row, books.ledger(row.leg))
    .filter((deposit) => !spent.has(`${deposit.txRef}:${deposit.position}`))
    .reduce((sum, deposit) => sum + deposit.amount, 0n);
}

async function closeEscrowIfDone(deps: EscrowEngineDeps, escrowId: string): Promise<void> {
  const books = await loadEscrowBooks(deps.db, escrowId);
  const payouts = books.legs.map((row) => books.payout(row.leg)).filter((payout) => payout !== null);
  if (payouts.length === 0 || payouts.some((payout) => payout.status !== 'confirmed')) return;
  const [escrow] = await deps.db.select().from(schema.escrows).where(eq(schema.escrows.id, escrowId));
  if (!escrow || escrow.status === 'settled' || escrow.status === 'refunded') return;
  const source = payouts[0]!.source;
  if (source === 'settlement' && payouts.length < 2) return;
  const refunded = payouts.every((payout) => payout.kind === 'refund');
  const now = deps.now();
  const settlementTransactions = settlementTransactionsOf(books);
  let completedAt: Date | null = null;
  let parties: string[] = [];
  await deps.db.transaction(async (tx) => {
    const [deal] = await tx
      .select()
      .from(schema.deals)
      .where(eq(schema.deals.id, escrow.dealId))
      .for('update');
    if (!deal) return;
    parties = [deal.buyerId, deal.sellerId];
    await tx
      .update(schema.escrows)
      .set({ status: refunded ? 'refunded' : 'settled', updatedAt: now })
      .where(
        and(
          eq(schema.escrows.id, escrowId),
          inArray(schema.escrows.status, ['funded', 'settling', 'refunding', 'awaiting_funding']),
        ),
      );
    let toStatus = deal.status;
    if (source === 'settlement' && deal.status === 'escrow_funded') {
      toStatus = nextDealStatus(deal.status, 'release', 'system');
      await tx
        .update(schema.deals)
        .set({ status: toStatus, completedAt: now, updatedAt: now })
        .where(eq(schema.deals.id, deal.id));
    }
    if (source === 'mediator') {
      const instructionIds = payouts
        .map((payout) => payout.instructionId)
        .filter((id): id is string => id !== null);
      if (instructionIds.length > 0) {
        await tx
          .update(schema.escrowInstructions)
          .set({ status: 'executed', updatedAt: now })
          .where(inArray(schema.escrowInstructions.id, instructionIds));
      }
    }
    completedAt = toStatus === 'completed' ? (deal.completedAt ?? now) : null;
    await appendDealEvent(tx, {
      dealId: deal.id,
      actorId: null,
      action: refunded ? 'escrow_refunded' : 'escrow_settled',
      payload: {
        escrow_id: escrowId,
        source,
        from_status: deal.status,
        to_status: toStatus,
        settlement_transactions: settlementTransactions,
      },
      createdAt: now,
    });
  });
  if (completedAt && !refunded) {
    await enqueueWebhookEvent(deps.webhooks, parties, 'deal.completed', {
      deal_id: escrow.dealId,
      completed_at: (completedAt as Date).toISOString(),
      settlement_transactions: settlementTransactions,
    });
  }
}

/** Locks the deal of escrow `escrowId` (FOR UPDATE) and returns its id. */
async function lockDealOfEscrow(tx: Transaction, escrowId: string): Promise<string> {
  const [row] = await tx
    .select({ dealId: schema.deals.id })
    .from(schema.deals)
    .innerJoin(schema.escrows, eq(schema.escrows.dealId, schema.deals.id))
    .where(eq(schema.escrows.id, escrowId))
    .for('update', { of: schema.deals });
  if (!row) throw new Error(`escrow ${escrowId} has no deal`);
  return row.dealId;
}
