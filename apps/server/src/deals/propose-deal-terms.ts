import { type Db, schema } from '@covenant/db';
import { type DealTermsVersionTerms, type Meeting, nextDealStatus } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { appendDealEvent } from './append-deal-event.js';
import {
  checkCounterparty,
  checkDealTerms,
  checkMeetingDate,
  loadTraderProfiles,
  lockPartyDeal,
  refuseOnceEscrowOpened,
} from './deal-terms.js';
import { type DealView, presentDeal, selectDealViews, versionTermsOf } from './deal-view.js';

/**
 * A party proposes a new version of a deal's terms until its escrow opens (then 409 DEAL_NOT_ACTIVE:
 * the escrow keeps the terms it opened on): the latest version with `changes`
 * applied. A proposal by the other party than the latest proposer is a counter-proposal; only the
 * party that did not propose the latest version may accept it. The result is checked like a new trade
 * (symbols, amounts, maximum, the proposer's tier limit) and must fit the other party's KYC and tier
 * limit too; the version is kept, the deals row mirrors it, and the proposal goes into the audit trail. A proposal after agreement reopens the negotiation
 * (the transition table in @covenant/domain) and clears the accepted version and its hash.
 */
export async function proposeDealTerms(
  deps: { db: Db; now: () => Date },
  userId: string,
  dealId: string,
  changes: Partial<Omit<DealTermsVersionTerms, 'meeting'>> & { meeting?: Meeting | null | undefined },
): Promise<DealView> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    // Locking the deal serialises concurrent proposals, acceptances and cancels, so the status check,
    // the version number and the audit trail's order hold.
    const { deal, party: role } = await lockPartyDeal(tx, userId, dealId);
    const status = nextDealStatus(deal.status, 'propose_terms', role);
    await refuseOnceEscrowOpened(tx, dealId, deal.status);
    const current = versionTermsOf(deal);
    const { meeting: meetingChange, ...otherChanges } = changes;
    const next: DealTermsVersionTerms = { ...current, ...otherChanges };
    // `meeting: null` clears the meeting's details; leaving it out keeps them.
    if (meetingChange === null) delete next.meeting;
    else if (meetingChange) next.meeting = { ...meetingChange };
    if (!next.meeting_required) {
      next.travel_location = null;
      delete next.meeting;
    }
    if (next.meeting) next.travel_location = next.meeting.location;
    if (meetingChange) checkMeetingDate(next.meeting, now);
    const counterpartyId = role === 'buyer' ? deal.sellerId : deal.buyerId;
    // Both profiles are read through the transaction (on PGlite nothing else may be awaited in it).
    const profiles = await loadTraderProfiles(tx, [userId, counterpartyId]);
    const { assetAmount, stableAmount } = checkDealTerms(profiles.get(userId), counterpartyId, next);
    checkCounterparty(profiles.get(counterpartyId), next, stableAmount);
    // Amounts are stored (and hashed) in their canonical decimal form.
    next.asset_amount = assetAmount.toString();
    next.stable_amount = stableAmount.toString();
    const changed = Object.fromEntries(
      ([...new Set([...Object.keys(current), ...Object.keys(next)])] as Array<keyof DealTermsVersionTerms>)
        .filter((field) => JSON.stringify(next[field] ?? null) !== JSON.stringify(current[field] ?? null))
        .map((field) => [field, { from: current[field] ?? null, to: next[field] ?? null }]),
    );
    const version = deal.termsVersion + 1;
    await tx
      .insert(schema.dealTermsVersions)
      .values({ dealId, version, proposedBy: userId, terms: next, createdAt: now });
    await tx
      .update(schema.deals)
      .set({
        assetChain: next.asset_chain,
        assetSymbol: next.asset_symbol,
        assetAmount: next.asset_amount,
        stableChain: next.stable_chain,
        stableSymbol: next.stable_symbol,
        stableAmount: next.stable_amount,
        meetingRequired: next.meeting_required,
        travelLocation: next.travel_location,
        meeting: next.meeting ? { ...next.meeting } : null,
        fundingDeadlineHours: next.funding_deadline_hours,
        termsVersion: version,
        acceptedTermsVersion: null,
        termsHash: null,
        termsAgreedAt: null,
        status,
        updatedAt: now,
      })
      .where(eq(schema.deals.id, dealId));
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'terms_proposed',
      payload: { version, terms: { ...next }, changes: changed },
      createdAt: now,
    });
  });
  const [row] = await selectDealViews(deps.db, eq(schema.deals.id, dealId));
  return presentDeal(row!, userId);
}
