import { type Db, schema } from '@covenant/db';
import { AppError, type DealTerms } from '@covenant/domain';
import { and, eq, or, sql } from 'drizzle-orm';
import { checkDealTerms, loadTraderProfiles } from './deal-terms.js';
import { type DealView, presentDeal, selectDealViews, termsOf } from './deal-view.js';

/** Terms may change until escrow is funded (spec §4); afterwards only a dispute changes anything. */
const changeableStatuses: ReadonlySet<schema.DealStatus> = new Set([
  'draft',
  'cis_submitted',
  'terms_agreed',
]);

/**
 * A party changes some of a deal's terms before funding. The result is checked like a new trade
 * (symbols, amounts, maximum, the caller's tier limit) and the change is recorded in the history.
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
  if (!changeableStatuses.has(deal.status)) {
    throw new AppError('DEAL_NOT_ACTIVE', 'The deal can no longer be modified', { status: deal.status });
  }
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
    if (!locked || !changeableStatuses.has(locked.status)) {
      throw new AppError('DEAL_NOT_ACTIVE', 'The deal can no longer be modified', { status: locked?.status });
    }
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
        updatedAt: now,
      })
      .where(eq(schema.deals.id, dealId));
    await tx.insert(schema.dealHistory).values({
      dealId,
      seq: sql`(select coalesce(max(${schema.dealHistory.seq}), 0) + 1 from ${schema.dealHistory} where ${schema.dealHistory.dealId} = ${dealId})`,
      action: 'terms_updated',
      actorId: userId,
      details: { changes: changed },
      createdAt: now,
    });
  });
  const [row] = await selectDealViews(deps.db, eq(schema.deals.id, dealId));
  return presentDeal(row!, userId);
}
