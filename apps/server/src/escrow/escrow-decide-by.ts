import { type Db, schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../deals/append-deal-event.js';
import { settlementSafetyMarginMs } from './legs-still-locked.js';

/**
 * When a funded escrow that has not started to settle is cancelled, and until when its legs can be
 * paid against each other: the margin before its earliest on-chain deadline; null when no leg has
 * one (nothing forces such a deal to end).
 */
export function settleByOf(legs: readonly { refundAfter: Date | null }[]): Date | null {
  const deadlines = legs.flatMap((leg) => (leg.refundAfter ? [leg.refundAfter.getTime()] : []));
  return deadlines.length > 0 ? new Date(Math.min(...deadlines) - settlementSafetyMarginMs) : null;
}

/**
 * Until when the escrow's legs can still be paid against each other (a settlement's release, a
 * mediator's release or split): the settlement margin before its earliest on-chain deadline. Null
 * when no leg has one (Bitcoin and Solana legs cannot be taken back alone).
 */
export async function escrowDecideBy(db: Db | Transaction, escrowId: string): Promise<Date | null> {
  const legs = await db
    .select({ refundAfter: schema.escrowLegs.refundAfter })
    .from(schema.escrowLegs)
    .where(eq(schema.escrowLegs.escrowId, escrowId));
  return settleByOf(legs);
}
