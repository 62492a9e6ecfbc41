import { schema } from '@covenant/db';
import {
  AppError,
  type DealPartyAddresses,
  dealTermsVersionTermsSchema,
  nextDealStatus,
} from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { appendDealEvent } from './append-deal-event.js';
import {
  checkCounterparty,
  checkDealTerms,
  loadTraderProfiles,
  lockPartyDeal,
  refuseOnceEscrowOpened,
} from './deal-terms.js';
import { type DealView, presentDeal, selectDealViews, versionTermsOf } from './deal-view.js';
import { type DealAddressDeps, misfitAddresses } from './set-deal-addresses.js';
import { hashAgreedTerms } from './terms-hash.js';

/**
 * The party that did not propose the latest version of the terms accepts exactly that version: the
 * deal moves to terms_agreed (only from cis_submitted, the transition table) and stores the accepted
 * version, when, and the terms hash over that version and both parties' addresses. Everything is
 * decided under the deal's row lock, so of two concurrent acceptances (or an acceptance and a cancel
 * or a new proposal) the second meets what the first did.
 *
 * Both parties must still have completed KYC and the accepted version must fit both tier limits (403
 * KYC_REQUIRED, 422 TIER_LIMIT_EXCEEDED), checked like a new trade.
 *
 * Refusals: a deal whose escrow is open is 409 DEAL_NOT_ACTIVE (its escrow keeps the terms it opened
 * on); a version that is not the latest is 409 CONFLICT with `latest_version`; accepting your own
 * proposal is 409 INVALID_STATE_TRANSITION; missing addresses (or ones that no longer fit the agreed
 * chains) are 422 ADDRESSES_REQUIRED naming whose.
 */
export async function acceptDealTerms(
  deps: DealAddressDeps,
  userId: string,
  dealId: string,
  version: number,
): Promise<DealView> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { deal, party } = await lockPartyDeal(tx, userId, dealId);
    const status = nextDealStatus(deal.status, 'accept_terms', party);
    // A deal reopened after its escrow opened (possible before proposals were refused then) keeps the
    // escrow's terms: accepting new ones would leave the escrow paying the old.
    await refuseOnceEscrowOpened(tx, dealId, deal.status);
    if (version !== deal.termsVersion) {
      throw new AppError('CONFLICT', `Version ${version} is not the latest proposal`, {
        latest_version: deal.termsVersion,
      });
    }
    const [proposal] = await tx
      .select()
      .from(schema.dealTermsVersions)
      .where(and(eq(schema.dealTermsVersions.dealId, dealId), eq(schema.dealTermsVersions.version, version)));
    // Deals from before versions were kept have none: their terms are the buyer's opening proposal.
    const proposedBy = proposal?.proposedBy ?? deal.buyerId;
    if (proposedBy === userId) {
      throw new AppError('INVALID_STATE_TRANSITION', 'You cannot accept your own proposal', {
        status: deal.status,
        action: 'accept_terms',
        actor: party,
        reason: 'own_proposal',
      });
    }
    const terms = proposal ? dealTermsVersionTermsSchema.parse(proposal.terms) : versionTermsOf(deal);
    // Checked again here, under the lock: the proposal was checked against the profiles of its time,
    // and either party's KYC or tier may have changed since.
    const counterpartyId = party === 'buyer' ? deal.sellerId : deal.buyerId;
    const profiles = await loadTraderProfiles(tx, [userId, counterpartyId]);
    const { stableAmount } = checkDealTerms(profiles.get(userId), counterpartyId, terms);
    checkCounterparty(profiles.get(counterpartyId), terms, stableAmount);
    if (terms.meeting_required && !terms.meeting) {
      throw new AppError(
        'MEETING_DETAILS_REQUIRED',
        'These terms require a meeting: propose its place, coordinates, first day, duration and who pays for travel before accepting',
        { fields: ['location', 'latitude', 'longitude', 'starts_on', 'duration', 'travel_paid_by'] },
      );
    }
    const rows = await tx.select().from(schema.dealAddresses).where(eq(schema.dealAddresses.dealId, dealId));
    const stored = new Map<string, DealPartyAddresses>(
      rows.map((row) => [
        row.party,
        { payout_address: row.payoutAddress, refund_address: row.refundAddress },
      ]),
    );
    const missing = (['buyer', 'seller'] as const).filter((side) => !stored.has(side));
    const invalid = Object.fromEntries(
      (['buyer', 'seller'] as const)
        .map((side) => {
          const addresses = stored.get(side);
          return [
            side,
            addresses ? misfitAddresses(side, terms, addresses, deps.bitcoinNetwork) : {},
          ] as const;
        })
        .filter(([, fields]) => Object.keys(fields).length > 0),
    );
    if (missing.length > 0 || Object.keys(invalid).length > 0) {
      throw new AppError(
        'ADDRESSES_REQUIRED',
        'Both parties must set payout and refund addresses on the agreed chains before the terms can be accepted',
        { missing, invalid },
      );
    }
    const termsHash = hashAgreedTerms({
      dealId,
      version,
      terms,
      addresses: { buyer: stored.get('buyer')!, seller: stored.get('seller')! },
    });
    await tx
      .update(schema.deals)
      .set({ status, acceptedTermsVersion: version, termsHash, termsAgreedAt: now, updatedAt: now })
      .where(eq(schema.deals.id, dealId));
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'terms_accepted',
      payload: { version, terms_hash: termsHash },
      createdAt: now,
    });
  });
  const [row] = await selectDealViews(deps.db, eq(schema.deals.id, dealId));
  return presentDeal(row!, userId);
}
