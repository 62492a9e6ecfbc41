import { type Db, schema } from '@covenant/db';
import { AppError, type DealTerms, nextDealStatus } from '@covenant/domain';
import { and, eq, or } from 'drizzle-orm';
import { appendDealEvent } from './append-deal-event.js';
import { checkDealTerms, loadTraderProfiles } from './deal-terms.js';
import { type DealView, presentDeal, selectDealViews, termsOf } from './deal-view.js';

/**
 * A party changes some of a deal's terms before funding. The result is checked like a new trade
 * (symbols, amounts, maximum, the caller's tier limit) and the change is recorded in the audit trail.
 * A change after the terms were agreed reopens the negotiation (the transition table in @covenant/domain).
 */
export async function updateDealTerms(
  deps: { db: Db; now: () => Date },
  userId: string,
  dealId: string,
  changes: Partial<DealTerms>,
): Promise<DealView> {
  const mine = and(
    eq(schema.deals.id, dealId),
    or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId)),
  );
  const [deal] = await deps.db.select().from(schema.deals).where(mine);
  if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
  const role = userId === deal.buyerId ? 'buyer' : 'seller';
  // Checked before the work below for a quick answer; checked again under the lock.
  nextDealStatus(deal.status, 'propose_terms', role);
  const current = termsOf(deal);
  const next: DealTerms = { ...current, ...changes };
  if (!next.meeting_required) next.travel_location = null;
  const counterpartyId = userId === deal.buyerId ? deal.sellerId : deal.buyerId;
  const profiles = await loadTraderProfiles(deps.db, [userId]);
  const { assetAmount, stableAmount } = checkDealTerms(profiles.get(userId), counterpartyId, next);
  const changed = Object.fromEntries(
    (Object.keys(next) as Array<keyof DealTerms>)
      .filter((field) => next[field] !== current[field])
      .map((field) => [field, { from: current[field], to: next[field] }]),
  );
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    // Locking the deal serialises concurrent changes, so the status check and the history numbering hold.
    const [locked] = await tx
      .select({ status: schema.deals.status })
      .from(schema.deals)
      .where(eq(schema.deals.id, dealId))
      .for('update');
    const status = nextDealStatus(locked!.status, 'propose_terms', role);
    await tx
      .update(schema.deals)
      .set({
        assetChain: next.asset_chain,
        assetSymbol: next.asset_symbol,
        assetAmount: assetAmount.toString(),
        stableChain: next.stable_chain,
        stableSymbol: next.stable_symbol,
        stableAmount: stableAmount.toString(),
        meetingRequired: next.meeting_required,
        travelLocation: next.travel_location,
        status,
        updatedAt: now,
      })
      .where(eq(schema.deals.id, dealId));
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'terms_updated',
      payload: { changes: changed },
      createdAt: now,
    });
  });
  const [row] = await selectDealViews(deps.db, eq(schema.deals.id, dealId));
  return presentDeal(row!, userId);
}
