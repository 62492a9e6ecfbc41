import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import type { Leg } from '@covenant/escrow';
import { and, eq, or } from 'drizzle-orm';
import type { LegRow } from './escrow-rows.js';

/**
 * The escrow (by its id or its deal's) with its deal, when the caller is one of the deal's parties,
 * and the caller's side. Anybody else's escrow is NOT_FOUND, never FORBIDDEN: its existence is not
 * revealed.
 */
export async function findPartyEscrow(db: Db, userId: string, by: { escrowId: string } | { dealId: string }) {
  const [found] = await db
    .select({ escrow: schema.escrows, deal: schema.deals })
    .from(schema.escrows)
    .innerJoin(schema.deals, eq(schema.deals.id, schema.escrows.dealId))
    .where(
      and(
        'escrowId' in by ? eq(schema.escrows.id, by.escrowId) : eq(schema.escrows.dealId, by.dealId),
        or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId)),
      ),
    );
  if (!found) throw new AppError('NOT_FOUND', 'Escrow not found');
  return { ...found, party: found.deal.buyerId === userId ? ('buyer' as const) : ('seller' as const) };
}

/** One leg of an escrow. */
export async function findLeg(db: Db, escrowId: string, leg: Leg): Promise<LegRow> {
  const [row] = await db
    .select()
    .from(schema.escrowLegs)
    .where(and(eq(schema.escrowLegs.escrowId, escrowId), eq(schema.escrowLegs.leg, leg)));
  if (!row) throw new AppError('NOT_FOUND', 'Escrow not found');
  return row;
}
