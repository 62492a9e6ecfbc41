import { schema } from '@covenant/db';
import {
  platformFee,
  type TravelPayer,
  travelPayers,
  travelQuoteShortfall,
  travelReceiverShare,
} from '@covenant/domain';
import { planTravelPayout } from '@covenant/escrow';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { appendDealEvent, type Transaction } from '../deals/append-deal-event.js';
import { cancelOpenTravel } from '../travel/cancel-open-travel.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import {
  depositOutputsOf,
  type EscrowBooks,
  type LegRow,
  legOf,
  loadEscrowBooks,
  type PayoutRow,
  receivedOf,
} from './escrow-rows.js';
import { buildStoredPayout, planJson } from './payout-variants.js';

/** Travel payouts still on their way: any but confirmed, failed or superseded. */
export const liveTravelStatuses = ['collecting', 'ready', 'submitting', 'submitted'] as const;

/** What a travel payout stores with its plan: the item and quote it pays, and the receiver's share of it. */
export interface TravelPlanNote {
  item_id: string;
  quote_version: number;
  receiver_share: string;
}

export function travelNoteOf(payout: Pick<PayoutRow, 'plan'>): TravelPlanNote {
  return payout.plan as unknown as TravelPlanNote;
}

/**
 * What travel has taken out of a leg so far: `paid`, confirmed on-chain (the ledger's travel
 * entries), and `charged`, the part of it the terms charge the receiver (the confirmed travel
 * payouts' receiver shares). The settlement pays the receiver `amount − fee − charged`.
 */
export function travelAccountOf(books: EscrowBooks, leg: LegRow): { paid: bigint; charged: bigint } {
  const paid = books
    .ledger(leg.leg)
    .filter((entry) => entry.kind === 'travel' && entry.status === 'confirmed')
    .reduce((sum, entry) => sum + BigInt(entry.amount), 0n);
  const charged = books
    .travelPayouts(leg.leg)
    .filter((payout) => payout.status === 'confirmed')
    .reduce((sum, payout) => sum + BigInt(travelNoteOf(payout).receiver_share), 0n);
  return { paid, charged };
}

/** Who bears travel, from the deal's meeting (the seller when the terms say nothing). */
export function travelPayerOf(meeting: Record<string, unknown> | null): TravelPayer {
  const paidBy = meeting?.travel_paid_by;
  return travelPayers.includes(paidBy as TravelPayer) ? (paidBy as TravelPayer) : 'seller';
}

/**
 * Whether the stable leg can pay `amount` now and still settle exactly: 0n when it can, the
 * shortfall the buyer must deposit first, or null when the seller's share would exceed what the
 * seller receives.
 */
export function travelShortfall(
  books: EscrowBooks,
  leg: LegRow,
  amount: bigint,
  paidBy: TravelPayer,
): bigint | null {
  const { paid, charged } = travelAccountOf(books, leg);
  const required = BigInt(leg.requiredAmount);
  return travelQuoteShortfall({
    amount,
    paidBy,
    required,
    held: receivedOf(leg, books.ledger(leg.leg)) - paid,
    charged,
    fee: platformFee(required),
  });
}

/**
 * Builds the payout of the oldest quoted travel item of each funded deal, one per stable leg at a
 * time (each payout consumes the escrow's next nonce on Ethereum, so two built together could not
 * both be carried out): out of the stable leg, to the quote's payee, for the buyer (the leg's
 * depositor) to sign and the platform to co-sign once both parties approved. A quote the leg cannot
 * pay and still settle exactly waits (the parties see why); a leg whose settlement has started pays
 * no more travel; a quote that changed supersedes the payout built for the old one.
 */
export async function prepareTravelPayouts(deps: EscrowEngineDeps): Promise<string[]> {
  await supersedeOrphanedTravelPayouts(deps);
  const quoted = await deps.db
    .select({ item: schema.travelItems, escrowId: schema.escrows.id, meeting: schema.deals.meeting })
    .from(schema.travelItems)
    .innerJoin(schema.deals, eq(schema.deals.id, schema.travelItems.dealId))
    .innerJoin(schema.escrows, eq(schema.escrows.dealId, schema.deals.id))
    .where(
      and(
        eq(schema.travelItems.status, 'quoted'),
        eq(schema.deals.status, 'escrow_funded'),
        eq(schema.escrows.status, 'funded'),
      ),
    )
    .orderBy(asc(schema.travelItems.quotedAt), asc(schema.travelItems.id));
  const touched = new Set<string>();
  const done = new Set<string>();
  for (const { item, escrowId, meeting } of quoted) {
    if (done.has(escrowId)) continue;
    done.add(escrowId);
    const books = await loadEscrowBooks(deps.db, escrowId);
    const leg = books.legs.find((row) => row.leg === 'stable');
    const chain = leg && deps.chains.get(leg.chain);
    if (!leg || !chain?.adapter.partialPayouts || books.payout('stable')) continue;
    const live = books
      .travelPayouts('stable')
      .filter((payout) => (liveTravelStatuses as readonly string[]).includes(payout.status));
    const current = live.find((payout) => {
      const note = travelNoteOf(payout);
      return note.item_id === item.id && note.quote_version === item.quoteVersion;
    });
    if (current) continue;
    // A payout built for an older quote, or another item, still collecting approvals: the oldest
    // quote goes first. One both parties approved (`ready`) goes before any other is built: its item
    // is approved, and superseding it would leave that item with nothing to pay it.
    const stale = live.filter((payout) => payout.status === 'collecting');
    if (stale.length < live.length) continue;
    if (stale.length > 0) {
      await deps.db
        .update(schema.escrowPayouts)
        .set({ status: 'superseded', updatedAt: deps.now() })
        .where(
          inArray(
            schema.escrowPayouts.id,
            stale.map((payout) => payout.id),
          ),
        );
    }
    const amount = BigInt(item.quoteAmount ?? '0');
    const paidBy = travelPayerOf(meeting);
    if (amount <= 0n || !item.quotePayeeAddress || travelShortfall(books, leg, amount, paidBy) !== 0n)
      continue;
    const plan = planTravelPayout(legOf(leg), item.quotePayeeAddress, amount);
    const deposits = depositOutputsOf(leg, books.ledger('stable'));
    const unsigned = await buildStoredPayout(chain, leg, plan, deposits, ['buyer']);
    const note: TravelPlanNote = {
      item_id: item.id,
      quote_version: item.quoteVersion,
      receiver_share: travelReceiverShare(amount, paidBy).toString(),
    };
    const now = deps.now();
    const [inserted] = await deps.db
      .insert(schema.escrowPayouts)
      .values({
        escrowId,
        leg: 'stable',
        chain: leg.chain,
        kind: 'travel',
        source: 'travel',
        payoutRef: unsigned.payoutRef,
        signingPayload: unsigned.signingPayload,
        plan: { ...planJson(plan, deposits), ...note },
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: schema.escrowPayouts.id });
    if (!inserted) continue;
    await deps.db
      .update(schema.travelItems)
      .set({ payoutId: inserted.id, updatedAt: now })
      .where(and(eq(schema.travelItems.id, item.id), eq(schema.travelItems.quoteVersion, item.quoteVersion)));
    touched.add(escrowId);
  }
  return [...touched];
}

/**
 * Travel payouts not sent yet whose item was cancelled or quoted again: superseded, so they can
 * never be carried out and the next quote's payout can be built.
 */
async function supersedeOrphanedTravelPayouts(deps: EscrowEngineDeps): Promise<void> {
  const pending = await deps.db
    .select()
    .from(schema.escrowPayouts)
    .where(
      and(
        eq(schema.escrowPayouts.source, 'travel'),
        inArray(schema.escrowPayouts.status, ['collecting', 'ready']),
      ),
    );
  for (const payout of pending) {
    const note = travelNoteOf(payout);
    const [item] = await deps.db
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.id, note.item_id));
    const valid =
      item &&
      (item.status === 'quoted' || item.status === 'approved') &&
      item.quoteVersion === note.quote_version;
    if (valid) continue;
    await deps.db
      .update(schema.escrowPayouts)
      .set({ status: 'superseded', updatedAt: deps.now() })
      .where(
        and(
          eq(schema.escrowPayouts.id, payout.id),
          inArray(schema.escrowPayouts.status, ['collecting', 'ready']),
        ),
      );
  }
}

/**
 * A travel payout the chain can no longer carry out as signed (`PayoutExpiredError`): superseded,
 * and its item goes back to waiting for the buyer's signature over the payout the next pass builds
 * (the seller's approval of the same quote still stands).
 */
export async function renewTravelPayout(
  deps: EscrowEngineDeps,
  payout: PayoutRow,
  reason: string,
): Promise<void> {
  const note = travelNoteOf(payout);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await tx
      .update(schema.escrowPayouts)
      .set({ status: 'superseded', error: reason.slice(0, 500), updatedAt: now })
      .where(and(eq(schema.escrowPayouts.id, payout.id), eq(schema.escrowPayouts.status, 'ready')));
    await tx
      .update(schema.travelItems)
      .set({ status: 'quoted', payoutId: null, updatedAt: now })
      .where(
        and(
          eq(schema.travelItems.id, note.item_id),
          eq(schema.travelItems.status, 'approved'),
          eq(schema.travelItems.quoteVersion, note.quote_version),
        ),
      );
    await tx
      .delete(schema.travelItemApprovals)
      .where(
        and(
          eq(schema.travelItemApprovals.itemId, note.item_id),
          eq(schema.travelItemApprovals.quoteVersion, note.quote_version),
          eq(schema.travelItemApprovals.party, 'buyer'),
        ),
      );
  });
}

/**
 * Once a travel payout is confirmed on-chain its item is paid: recorded in the deal's audit trail
 * (and so notified to both parties) with the transaction. Runs in the transaction that records the
 * payout confirmed, the deal locked first (`dealId`): the release charges the receiver the confirmed
 * travel payouts' shares, and the parties' browsers check that charge against these entries, so one
 * may never exist without the other.
 */
export async function markTravelPaid(
  tx: Transaction,
  dealId: string,
  payout: PayoutRow,
  now: Date,
): Promise<void> {
  const note = travelNoteOf(payout);
  const paid = await tx
    .update(schema.travelItems)
    .set({ status: 'paid', updatedAt: now })
    .where(and(eq(schema.travelItems.id, note.item_id), eq(schema.travelItems.status, 'approved')))
    .returning({ id: schema.travelItems.id, amount: schema.travelItems.quoteAmount });
  if (paid.length === 0) return;
  await appendDealEvent(tx, {
    dealId,
    actorId: null,
    action: 'travel_paid',
    payload: {
      item_id: note.item_id,
      amount: paid[0]!.amount ?? '0',
      receiver_share: note.receiver_share,
      transaction_hash: payout.txRef,
    },
    createdAt: now,
  });
}

/**
 * Whether travel is on its way out of the leg: a payout being sent or sent, or, while the deal is
 * still funded (`dealFunded`), one both parties approved (`ready`), which the next pass sends. Once
 * the deal is not (disputed, decided, cancelled) a `ready` one never goes: `closeTravel` supersedes it.
 */
export function travelInFlight(books: EscrowBooks, leg: LegRow['leg'], dealFunded: boolean): boolean {
  return books
    .travelPayouts(leg)
    .some(
      (payout) =>
        (dealFunded && payout.status === 'ready') ||
        payout.status === 'submitting' ||
        payout.status === 'submitted',
    );
}

/**
 * Once the escrow settles (or a mediator decides, or the deal is cancelled), nothing more is paid from
 * it for travel: payouts not sent yet are superseded, and open requests and quotes cancelled, with the
 * approved items those payouts were to pay, each in the deal's audit trail with why. With the deal
 * locked: an approval (which locks it too) comes before, and is then seen here, or after, and is then
 * refused. False, with nothing changed, when the escrow settles (`escrow_settling`) and a travel
 * payout was approved by both meanwhile: it goes first, and the settlement is built on what it leaves.
 */
export async function closeTravel(deps: EscrowEngineDeps, escrowId: string, why: string): Promise<boolean> {
  const [escrow] = await deps.db.select().from(schema.escrows).where(eq(schema.escrows.id, escrowId));
  if (!escrow) return false;
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    await tx
      .select({ id: schema.deals.id })
      .from(schema.deals)
      .where(eq(schema.deals.id, escrow.dealId))
      .for('update');
    const travelPayouts = and(
      eq(schema.escrowPayouts.escrowId, escrowId),
      eq(schema.escrowPayouts.source, 'travel'),
    );
    if (why === 'escrow_settling') {
      const [approved] = await tx
        .select({ id: schema.escrowPayouts.id })
        .from(schema.escrowPayouts)
        .where(and(travelPayouts, inArray(schema.escrowPayouts.status, ['ready', 'submitting', 'submitted'])))
        .limit(1);
      if (approved) return false;
    }
    const superseded = await tx
      .update(schema.escrowPayouts)
      .set({ status: 'superseded', updatedAt: now })
      .where(and(travelPayouts, inArray(schema.escrowPayouts.status, ['collecting', 'ready'])))
      .returning({ id: schema.escrowPayouts.id });
    await cancelOpenTravel(tx, {
      dealId: escrow.dealId,
      actorId: null,
      now,
      reason: why,
      unpaidApprovedPayouts: superseded.map((payout) => payout.id),
    });
    return true;
  });
}
