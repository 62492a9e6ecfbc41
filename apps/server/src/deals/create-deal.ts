import { type Db, schema } from '@covenant/db';
import { AppError, type DealTerms, type Meeting } from '@covenant/domain';
import { appendDealEvent } from './append-deal-event.js';
import { checkCounterparty, checkDealTerms, checkMeetingDate, loadTraderProfiles } from './deal-terms.js';
import { type DealView, presentDeal, versionTermsOf } from './deal-view.js';

export interface CreateDealDeps {
  db: Db;
  now: () => Date;
  /** Told about the new deal after it is stored (webhooks to both parties). */
  dealCreated: (deal: DealView) => Promise<void>;
}

export interface NewDeal extends DealTerms {
  counterparty_id: string;
  meeting?: Meeting | null | undefined;
}

/**
 * The caller creates a draft deal as buyer with a verified, KYC-complete counterparty as seller
 * (spec §4-§6), within both traders' tier limits. Its terms are version 1, proposed by the buyer;
 * the first audit entry (and history entry) records the creation with them.
 */
export async function createDeal(deps: CreateDealDeps, buyerId: string, input: NewDeal): Promise<DealView> {
  const profiles = await loadTraderProfiles(deps.db, [buyerId, input.counterparty_id]);
  const buyer = profiles.get(buyerId);
  const { assetAmount, stableAmount } = checkDealTerms(buyer, input.counterparty_id, input);
  const seller = profiles.get(input.counterparty_id);
  if (
    input.counterparty_id === buyerId ||
    seller?.verificationStatus !== 'verified' ||
    !seller.kycCompleted
  ) {
    throw new AppError('VALIDATION_FAILED', 'The counterparty must be a verified trader other than you', {
      fields: { counterparty_id: 'not a verified, KYC-complete trader other than you' },
    });
  }
  checkCounterparty(seller, input, stableAmount);
  const now = deps.now();
  if (input.meeting_required) checkMeetingDate(input.meeting, now);
  const deal = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(schema.deals)
      .values({
        buyerId,
        sellerId: input.counterparty_id,
        assetChain: input.asset_chain,
        assetSymbol: input.asset_symbol,
        assetAmount: assetAmount.toString(),
        stableChain: input.stable_chain,
        stableSymbol: input.stable_symbol,
        stableAmount: stableAmount.toString(),
        meetingRequired: input.meeting_required,
        // The meeting's place is the travel location the spec's trade row names.
        travelLocation: input.meeting_required ? (input.meeting?.location ?? input.travel_location) : null,
        meeting: input.meeting_required && input.meeting ? { ...input.meeting } : null,
        status: 'draft',
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const terms = versionTermsOf(created!);
    await tx
      .insert(schema.dealTermsVersions)
      .values({ dealId: created!.id, version: 1, proposedBy: buyerId, terms, createdAt: now });
    await appendDealEvent(tx, {
      dealId: created!.id,
      actorId: buyerId,
      action: 'created',
      payload: { buyer_id: buyerId, seller_id: input.counterparty_id, version: 1, terms: { ...terms } },
      createdAt: now,
    });
    return created!;
  });
  const view = presentDeal(
    {
      deal,
      buyerUsername: buyer!.username,
      buyerTier: buyer!.tradingTier,
      sellerUsername: seller.username,
      sellerTier: seller.tradingTier,
      buyerPayout: null,
      buyerRefund: null,
      sellerPayout: null,
      sellerRefund: null,
      termsProposedBy: buyerId,
    },
    buyerId,
  );
  await deps.dealCreated(view);
  return view;
}
