import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { checkDealTerms, type DealTerms } from './deal-terms.js';
import { type DealView, presentDeal, selectDealViews } from './deal-view.js';

export interface CreateDealDeps {
  db: Db;
  now: () => Date;
  /** Told about the new deal after it is stored (webhooks to both parties). */
  dealCreated: (deal: DealView) => Promise<void>;
}

export interface NewDeal extends DealTerms {
  counterparty_id: string;
}

/**
 * The caller creates a draft deal as buyer with a verified, KYC-complete counterparty as seller
 * (spec §4-§6). The first history entry records the creation.
 */
export async function createDeal(deps: CreateDealDeps, buyerId: string, input: NewDeal): Promise<DealView> {
  const { assetAmount, stableAmount } = await checkDealTerms(deps.db, buyerId, input.counterparty_id, input);
  await checkCounterparty(deps.db, buyerId, input.counterparty_id);
  const now = deps.now();
  const dealId = await deps.db.transaction(async (tx) => {
    const [deal] = await tx
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
        travelLocation: input.meeting_required ? input.travel_location : null,
        status: 'draft',
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: schema.deals.id });
    await tx.insert(schema.dealHistory).values({
      dealId: deal!.id,
      seq: 1,
      action: 'created',
      actorId: buyerId,
      details: {},
      createdAt: now,
    });
    return deal!.id;
  });
  const [row] = await selectDealViews(deps.db, eq(schema.deals.id, dealId));
  const view = presentDeal(row!, buyerId);
  await deps.dealCreated(view);
  return view;
}

async function checkCounterparty(db: Db, buyerId: string, counterpartyId: string): Promise<void> {
  const [partner] = await db
    .select({
      verificationStatus: schema.profiles.verificationStatus,
      kycCompleted: schema.profiles.kycCompleted,
    })
    .from(schema.profiles)
    .where(eq(schema.profiles.id, counterpartyId));
  if (counterpartyId === buyerId || partner?.verificationStatus !== 'verified' || !partner.kycCompleted) {
    throw new AppError('VALIDATION_FAILED', 'The counterparty must be a verified trader other than you', {
      fields: { counterparty_id: 'not a verified, KYC-complete trader other than you' },
    });
  }
}
