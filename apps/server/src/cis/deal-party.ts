import { type Db, schema } from '@covenant/db';
import { AppError, type DealStatus } from '@covenant/domain';
import { and, eq, or } from 'drizzle-orm';
import type { Transaction } from '../deals/append-deal-event.js';

export type DealParty = schema.DealParty;

export interface PartyDeal {
  status: DealStatus;
  /** The caller's side of the deal. */
  party: DealParty;
}

const isPartyTo = (dealId: string, userId: string) =>
  and(eq(schema.deals.id, dealId), or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId)));

const partyOf = (deal: { buyerId: string; status: DealStatus }, userId: string): PartyDeal => ({
  status: deal.status,
  party: deal.buyerId === userId ? 'buyer' : 'seller',
});

const columns = { status: schema.deals.status, buyerId: schema.deals.buyerId };

/** The caller's side of a deal; anybody else's deal is NOT_FOUND, never FORBIDDEN. */
export async function readPartyDeal(db: Db, userId: string, dealId: string): Promise<PartyDeal> {
  const [deal] = await db.select(columns).from(schema.deals).where(isPartyTo(dealId, userId));
  if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
  return partyOf(deal, userId);
}

/**
 * The same, with the deal's row locked until the transaction ends: of two concurrent changes the
 * second waits and then sees what the first did.
 */
export async function lockPartyDeal(tx: Transaction, userId: string, dealId: string): Promise<PartyDeal> {
  const [deal] = await tx.select(columns).from(schema.deals).where(isPartyTo(dealId, userId)).for('update');
  if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
  return partyOf(deal, userId);
}

export function otherParty(party: DealParty): DealParty {
  return party === 'buyer' ? 'seller' : 'buyer';
}
