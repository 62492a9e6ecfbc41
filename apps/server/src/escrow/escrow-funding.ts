import { type Db, schema } from '@covenant/db';
import { type Leg, legs } from '@covenant/escrow';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../deals/append-deal-event.js';
import { type LedgerRow, type LegRow, loadEscrowBooks, receivedOf } from './escrow-rows.js';
import { travelAccountOf, travelNoteOf } from './travel-payouts.js';

/** A leg of an opened escrow holding less than its amount in confirmed deposits (base units as decimal text). */
export interface ShortLeg {
  leg: Leg;
  required: string;
  received: string;
}

/**
 * The legs of an escrow that hold less than their amount in confirmed deposits. A release or a split
 * pays each leg's receiver out of the leg's whole amount, so it can be carried out only when no leg is
 * short: on a short escrow the funded leg would be paid out while the other has nothing (or not enough)
 * to pay, and one side would lose its deposit for nothing. A refund returns whatever arrived, so it
 * never needs this. A leg without a row (never the case for an escrow opened by `createEscrow`, which
 * writes both at once) holds nothing; `amounts` (the deal's) say what it needed.
 */
export function shortLegs(
  rows: readonly LegRow[],
  ledgerOf: (leg: Leg) => readonly LedgerRow[],
  amounts: Record<Leg, string>,
): ShortLeg[] {
  return legs.flatMap((leg) => {
    const row = rows.find((candidate) => candidate.leg === leg);
    const required = BigInt(row ? row.requiredAmount : amounts[leg]);
    const received = row ? receivedOf(row, ledgerOf(leg)) : 0n;
    return received >= required && received > 0n
      ? []
      : [{ leg, required: required.toString(), received: received.toString() }];
  });
}

/** `shortLegs` of the escrow `escrowId`, read from its rows (inside a transaction when given one). */
export async function loadShortLegs(
  db: Db | Transaction,
  escrowId: string,
  amounts: Record<Leg, string>,
): Promise<ShortLeg[]> {
  // One after the other: on PGlite a transaction runs one statement at a time.
  const rows = await db.select().from(schema.escrowLegs).where(eq(schema.escrowLegs.escrowId, escrowId));
  const ledger = await db
    .select()
    .from(schema.escrowLedgerEntries)
    .where(eq(schema.escrowLedgerEntries.escrowId, escrowId));
  return shortLegs(rows, (leg) => ledger.filter((entry) => entry.leg === leg), amounts);
}

/** What a leg holds for a mediator's decision once travel is out of it (base units). */
export interface LegAfterTravel {
  leg: Leg;
  /** Confirmed deposits less travel paid (confirmed) and on its way (sent, not confirmed yet). */
  held: bigint;
  /** The travel paid and on its way. */
  travel: bigint;
  /** The part of it the terms (`travel_paid_by`) put on the leg's receiver. */
  charged: bigint;
}

/**
 * Each leg's confirmed deposits less the travel paid out of it or on its way, read from its rows
 * (inside the deciding transaction when given it): a split's share for a leg's receiver must fit in
 * it, or the engine could not carry the decision out (the depositor's share takes what travel left).
 */
export async function loadLegsAfterTravel(
  db: Db | Transaction,
  escrowId: string,
  options: { inTransaction?: boolean } = {},
): Promise<LegAfterTravel[]> {
  const books = await loadEscrowBooks(db, escrowId, options);
  return books.legs.map((row) => {
    const { paid, charged } = travelAccountOf(books, row);
    const sent = books
      .travelPayouts(row.leg)
      .filter((payout) => payout.status === 'submitting' || payout.status === 'submitted');
    const onItsWay = sent
      .flatMap((payout) => (payout.plan as { transfers?: { amount: string }[] }).transfers ?? [])
      .reduce((sum, transfer) => sum + BigInt(transfer.amount), 0n);
    const chargedOnItsWay = sent.reduce(
      (sum, payout) => sum + BigInt(travelNoteOf(payout).receiver_share),
      0n,
    );
    const travel = paid + onItsWay;
    return {
      leg: row.leg,
      held: receivedOf(row, books.ledger(row.leg)) - travel,
      travel,
      charged: charged + chargedOnItsWay,
    };
  });
}
