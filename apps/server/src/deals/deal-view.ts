import { type Db, schema } from '@covenant/db';
import {
  type Deal,
  type DealPartyAddresses,
  type DealTerms,
  type DealTermsVersionTerms,
  type Meeting,
  meetingSchema,
} from '@covenant/domain';
import { and, eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';

/** A deal as the API shows it to one of its parties. */
export type DealView = Deal;

const buyerProfile = alias(schema.profiles, 'buyer_profile');
const sellerProfile = alias(schema.profiles, 'seller_profile');
const buyerAddresses = alias(schema.dealAddresses, 'buyer_addresses');
const sellerAddresses = alias(schema.dealAddresses, 'seller_addresses');
const latestVersion = alias(schema.dealTermsVersions, 'latest_terms_version');

/**
 * Deals with both parties' public profile fields, their addresses and who proposed the latest
 * version of the terms, filtered and ordered by the caller. Every join is on a primary key, so a deal
 * stays one row.
 */
export function selectDealViews(db: Db, where: SQL | undefined) {
  return db
    .select({
      deal: schema.deals,
      buyerUsername: buyerProfile.username,
      buyerTier: buyerProfile.tradingTier,
      sellerUsername: sellerProfile.username,
      sellerTier: sellerProfile.tradingTier,
      buyerPayout: buyerAddresses.payoutAddress,
      buyerRefund: buyerAddresses.refundAddress,
      sellerPayout: sellerAddresses.payoutAddress,
      sellerRefund: sellerAddresses.refundAddress,
      termsProposedBy: latestVersion.proposedBy,
    })
    .from(schema.deals)
    .leftJoin(buyerProfile, eq(buyerProfile.id, schema.deals.buyerId))
    .leftJoin(sellerProfile, eq(sellerProfile.id, schema.deals.sellerId))
    .leftJoin(
      buyerAddresses,
      and(eq(buyerAddresses.dealId, schema.deals.id), eq(buyerAddresses.party, 'buyer')),
    )
    .leftJoin(
      sellerAddresses,
      and(eq(sellerAddresses.dealId, schema.deals.id), eq(sellerAddresses.party, 'seller')),
    )
    .leftJoin(
      latestVersion,
      and(eq(latestVersion.dealId, schema.deals.id), eq(latestVersion.version, schema.deals.termsVersion)),
    )
    .where(where)
    .$dynamic();
}

type DealViewRow = Awaited<ReturnType<typeof selectDealViews>>[number];

const addresses = (payout: string | null, refund: string | null): DealPartyAddresses | null =>
  payout !== null && refund !== null ? { payout_address: payout, refund_address: refund } : null;

export function presentDeal(row: DealViewRow, viewerId: string): DealView {
  const { deal } = row;
  return {
    id: deal.id,
    buyer_id: deal.buyerId,
    seller_id: deal.sellerId,
    counterparty_id: viewerId === deal.buyerId ? deal.sellerId : deal.buyerId,
    buyer: { id: deal.buyerId, username: row.buyerUsername, trading_tier: row.buyerTier },
    seller: { id: deal.sellerId, username: row.sellerUsername, trading_tier: row.sellerTier },
    ...termsOf(deal),
    meeting: meetingOf(deal) ?? null,
    status: deal.status,
    terms_version: deal.termsVersion,
    // Deals from before versions were kept have no version row: their terms are the buyer's opening ones.
    terms_proposed_by: row.termsProposedBy ?? deal.buyerId,
    funding_deadline_hours: deal.fundingDeadlineHours,
    accepted_terms_version: deal.acceptedTermsVersion,
    terms_hash: deal.termsHash,
    terms_agreed_at: deal.termsAgreedAt?.toISOString() ?? null,
    addresses: {
      buyer: addresses(row.buyerPayout, row.buyerRefund),
      seller: addresses(row.sellerPayout, row.sellerRefund),
    },
    created_at: deal.createdAt.toISOString(),
    updated_at: deal.updatedAt.toISOString(),
    completed_at: deal.completedAt?.toISOString() ?? null,
  };
}

/** The tradeable fields of a stored deal, named as the API names them. */
export function termsOf(deal: typeof schema.deals.$inferSelect): DealTerms {
  return {
    asset_chain: deal.assetChain,
    asset_symbol: deal.assetSymbol,
    asset_amount: deal.assetAmount,
    stable_chain: deal.stableChain,
    stable_symbol: deal.stableSymbol,
    stable_amount: deal.stableAmount,
    meeting_required: deal.meetingRequired,
    travel_location: deal.travelLocation,
  };
}

/** The meeting a stored deal's terms carry, when they require one and it was proposed. */
export function meetingOf(deal: typeof schema.deals.$inferSelect): Meeting | undefined {
  if (!deal.meetingRequired || !deal.meeting) return undefined;
  return meetingSchema.parse(deal.meeting);
}

/** What a version of the terms fixes, as the deals row mirrors its latest version. */
export function versionTermsOf(deal: typeof schema.deals.$inferSelect): DealTermsVersionTerms {
  const meeting = meetingOf(deal);
  // The key is left out without a meeting, so terms hashes of deals without one stay as they were.
  return {
    ...termsOf(deal),
    funding_deadline_hours: deal.fundingDeadlineHours,
    ...(meeting ? { meeting } : {}),
  };
}
