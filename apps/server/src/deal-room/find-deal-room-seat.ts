import { type Db, schema } from '@covenant/db';
import { AppError, type DealRoomRole } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import type { Principal } from '../api/principal.js';
import { requireStaff } from '../api/require-staff.js';

/** Who the caller is in a deal's room, and what the room needs to know about the deal. */
export interface DealRoomSeat {
  dealId: string;
  userId: string;
  role: DealRoomRole;
  status: schema.DealStatus;
  buyerId: string;
  sellerId: string;
}

/**
 * The caller's place in a deal's room: buyer or seller for its parties; mediator for mediator staff
 * (aal2, else 403) once the deal has a dispute, open or decided. Anybody else, and a mediator on a
 * deal without a dispute, gets NOT_FOUND, as for any deal that is not theirs.
 */
export async function findDealRoomSeat(db: Db, principal: Principal, dealId: string): Promise<DealRoomSeat> {
  const [deal] = await db
    .select({ status: schema.deals.status, buyerId: schema.deals.buyerId, sellerId: schema.deals.sellerId })
    .from(schema.deals)
    .where(eq(schema.deals.id, dealId));
  const seat = (role: DealRoomRole): DealRoomSeat => ({ dealId, userId: principal.userId, role, ...deal! });
  if (deal?.buyerId === principal.userId) return seat('buyer');
  if (deal?.sellerId === principal.userId) return seat('seller');
  if (!principal.roles.includes('mediator')) throw new AppError('NOT_FOUND', 'Deal not found');
  requireStaff(principal, ['mediator'], 'The room of a disputed deal');
  if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
  const [dispute] = await db
    .select({ id: schema.dealDisputes.id })
    .from(schema.dealDisputes)
    .where(eq(schema.dealDisputes.dealId, dealId))
    .limit(1);
  if (!dispute) throw new AppError('NOT_FOUND', 'Deal not found');
  return seat('mediator');
}
