import { schema } from '@covenant/db';
import type { Dispute } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import type { DisputeDeps } from './dispute-deps.js';
import { findPartyDeal } from './find-party-deal.js';
import { loadDisputes } from './present-disputes.js';

/** The disputes of one of the caller's deals, oldest first; anybody else's deal is NOT_FOUND. */
export async function listDealDisputes(
  deps: Pick<DisputeDeps, 'db'>,
  userId: string,
  dealId: string,
): Promise<Dispute[]> {
  await findPartyDeal(deps.db, userId, dealId);
  return loadDisputes(deps.db, eq(schema.dealDisputes.dealId, dealId));
}
