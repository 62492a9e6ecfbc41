import { schema } from '@covenant/db';
import { AppError, type DealCis, nextDealStatus } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import type { CisDeps } from './cis-deps.js';
import { lockPartyDeal } from './deal-party.js';
import { loadDealCis } from './load-deal-cis.js';

/**
 * A party attaches one of its own sheets as its CIS for a draft deal. It replaces a sheet attached
 * earlier that is still pending or was rejected (the counterparty reviews afresh); an approved one
 * stays, so nobody swaps a sheet after the other side accepted it.
 */
export async function attachDealCis(
  deps: Pick<CisDeps, 'db' | 'fileStore' | 'now'>,
  userId: string,
  dealId: string,
  cisId: string,
): Promise<DealCis> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const deal = await lockPartyDeal(tx, userId, dealId);
    const status = nextDealStatus(deal.status, 'attach_cis', deal.party);
    const [sheet] = await tx
      .select({ id: schema.cisSheets.id })
      .from(schema.cisSheets)
      .where(and(eq(schema.cisSheets.id, cisId), eq(schema.cisSheets.ownerId, userId)));
    if (!sheet) throw new AppError('NOT_FOUND', 'CIS not found');
    const [current] = await tx
      .select({ status: schema.dealCis.status })
      .from(schema.dealCis)
      .where(and(eq(schema.dealCis.dealId, dealId), eq(schema.dealCis.party, deal.party)));
    if (current?.status === 'approved') {
      throw new AppError('CONFLICT', 'Your CIS for this deal is already approved', {
        reason: 'cis_approved',
      });
    }
    const attached = {
      cisId,
      status: 'pending' as const,
      reviewComment: null,
      reviewedAt: null,
      attachedAt: now,
    };
    await tx
      .insert(schema.dealCis)
      .values({ dealId, party: deal.party, ...attached })
      .onConflictDoUpdate({ target: [schema.dealCis.dealId, schema.dealCis.party], set: attached });
    await tx.update(schema.deals).set({ status, updatedAt: now }).where(eq(schema.deals.id, dealId));
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'cis_attached',
      payload: { party: deal.party, cis_id: cisId },
      createdAt: now,
    });
  });
  return loadDealCis(deps, dealId);
}
