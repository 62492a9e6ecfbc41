import { schema } from '@covenant/db';
import { nextDealStatus } from '@covenant/domain';
import { type LegState, legDepositor, legState } from '@covenant/escrow';
import { and, eq, inArray } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { enqueueWebhookEvent } from '../webhooks/enqueue-webhook-event.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { ledgerEntryOf, receivedOf, setLegState } from './escrow-rows.js';

/** States set when a payout is sent, kept until its movements are confirmed on-chain. */
const inFlight: readonly LegState[] = ['releasing', 'refunding'];

/**
 * Brings the state of each of these escrows' legs in line with its ledger; a leg that becomes
 * funded sends `escrow.funded`, and an escrow whose two legs are funded moves its deal to
 * `escrow_funded` (the system's `fund_escrow`), all recorded in the deal's audit trail.
 */
export async function refreshEscrows(deps: EscrowEngineDeps, escrowIds: readonly string[]): Promise<void> {
  for (const escrowId of new Set(escrowIds)) {
    await refreshEscrow(deps, escrowId);
  }
}

async function refreshEscrow(deps: EscrowEngineDeps, escrowId: string): Promise<void> {
  // The escrow with its deal's parties, its legs and its ledger: three reads sent together.
  const [[found], legRows, ledgerRows] = await Promise.all([
    deps.db
      .select({
        status: schema.escrows.status,
        dealId: schema.deals.id,
        buyerId: schema.deals.buyerId,
        sellerId: schema.deals.sellerId,
      })
      .from(schema.escrows)
      .innerJoin(schema.deals, eq(schema.deals.id, schema.escrows.dealId))
      .where(eq(schema.escrows.id, escrowId)),
    deps.db.select().from(schema.escrowLegs).where(eq(schema.escrowLegs.escrowId, escrowId)),
    deps.db
      .select()
      .from(schema.escrowLedgerEntries)
      .where(eq(schema.escrowLedgerEntries.escrowId, escrowId)),
  ]);
  if (!found) return;
  const escrow = { status: found.status };
  const deal = { id: found.dealId, buyerId: found.buyerId, sellerId: found.sellerId };
  const now = deps.now();
  const states = new Map<string, LegState>();
  /** The `escrow.funded` of each leg funded here, queued after the deal's own change. */
  const fundedEvents: Record<string, unknown>[] = [];
  // The deal's change is committed before the legs' webhooks are queued: it is what a deposit waits for.
  try {
    for (const row of legRows) {
      const ledger = ledgerRows.filter((entry) => entry.leg === row.leg).map(ledgerEntryOf);
      const derived = legState({
        requiredAmount: BigInt(row.requiredAmount),
        requiredConfirmations: row.requiredConfirmations,
        ledger,
      });
      const settledOrUnset = ['released', 'refunded', 'releasing', 'refunding'].includes(derived);
      const state = inFlight.includes(row.state) && !settledOrUnset ? row.state : derived;
      states.set(row.leg, state);
      if (state === row.state) continue;
      await setLegState(deps.db, escrowId, row.leg, state, now);
      if (state === 'funded') {
        const deposits = ledgerRows.filter(
          (entry) => entry.leg === row.leg && entry.kind === 'deposit' && entry.status !== 'reorged',
        );
        const latest = deposits.sort((a, b) => Number((b.blockHeight ?? 0n) - (a.blockHeight ?? 0n)))[0];
        const received = deposits.reduce((sum, entry) => sum + BigInt(entry.amount), 0n);
        fundedEvents.push({
          deal_id: deal.id,
          escrow_id: escrowId,
          side: legDepositor[row.leg],
          leg: row.leg,
          chain: row.chain,
          symbol: row.symbol,
          amount: received.toString(),
          transaction_hash: latest?.txRef ?? null,
        });
      }
    }
    const bothFunded = legRows.length === 2 && [...states.values()].every((state) => state === 'funded');
    if (bothFunded && escrow.status === 'awaiting_funding') {
      await deps.db.transaction(async (tx) => {
        const [locked] = await tx
          .select({ status: schema.deals.status })
          .from(schema.deals)
          .where(eq(schema.deals.id, deal.id))
          .for('update');
        if (locked?.status !== 'terms_agreed') return;
        const status = nextDealStatus(locked.status, 'fund_escrow', 'system');
        await tx.update(schema.deals).set({ status, updatedAt: now }).where(eq(schema.deals.id, deal.id));
        await tx
          .update(schema.escrows)
          .set({ status: 'funded', updatedAt: now })
          .where(and(eq(schema.escrows.id, escrowId), inArray(schema.escrows.status, ['awaiting_funding'])));
        await appendDealEvent(tx, {
          dealId: deal.id,
          actorId: null,
          action: 'escrow_funded',
          payload: {
            escrow_id: escrowId,
            from_status: locked.status,
            to_status: status,
            legs: legRows.map((row) => ({
              leg: row.leg,
              received: receivedOf(
                row,
                ledgerRows.filter((entry) => entry.leg === row.leg),
              ).toString(),
            })),
          },
          createdAt: now,
        });
      });
    }
  } finally {
    // As before, a leg's `escrow.funded` is queued even when the deal's change fails: its state is set.
    for (const data of fundedEvents) {
      await enqueueWebhookEvent(deps.webhooks, [deal.buyerId, deal.sellerId], 'escrow.funded', data);
    }
  }
}
