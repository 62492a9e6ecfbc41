import { schema } from '@covenant/db';
import {
  AppError,
  type Dispute,
  type DisputeDecisionRequest,
  type DisputePayout,
  disputePayout,
  disputeResolution,
  formatAmount,
  formatUtcMinute,
  isTokenSymbol,
  nextDealStatus,
  tokenDecimals,
} from '@covenant/domain';
import type { Leg } from '@covenant/escrow';
import { eq } from 'drizzle-orm';
import { appendDealEvent, type Transaction } from '../deals/append-deal-event.js';
import { escrowDecideBy } from '../escrow/escrow-decide-by.js';
import {
  type LegAfterTravel,
  loadLegsAfterTravel,
  loadShortLegs,
  type ShortLeg,
} from '../escrow/escrow-funding.js';
import { cancelOpenTravel } from '../travel/cancel-open-travel.js';
import type { DisputeDeps } from './dispute-deps.js';
import { lockDisputeForMediator } from './lock-dispute-for-mediator.js';
import { loadDisputes } from './present-disputes.js';

/**
 * A mediator decides an open dispute: in one transaction the deal moves through the transition
 * table, the dispute records the decision, the amounts per leg and the rationale, an escrow
 * instruction is queued for the escrow engine, and the audit trail records it all. A deal disputed
 * before its escrow opened holds no money: the decision cancels it (with its open travel), queues
 * nothing, and says so (`effect: deal_cancelled`). Release and split are refused (422
 * INSUFFICIENT_BALANCE, the short legs in `details.short_legs`) unless every leg of the escrow holds its
 * amount: a deal disputed while its escrow was still being funded can only be refunded. They are refused
 * too (409 CONFLICT, `settlement_window_closed`) once an Ethereum leg's on-chain deadline is within the
 * settlement margin, when the legs can no longer be paid against each other. A split whose share for a
 * leg's receiver exceeds what travel paid out of the leg left in it is refused (422
 * INSUFFICIENT_BALANCE, `split_beyond_travel`): the engine could not carry it out. A case another
 * mediator has taken is theirs to decide; a decided dispute cannot be decided again.
 */
export async function decideDispute(
  deps: DisputeDeps,
  mediatorId: string,
  disputeId: string,
  request: DisputeDecisionRequest,
): Promise<Dispute> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { dispute, deal } = await lockDisputeForMediator(tx, mediatorId, disputeId);
    if (dispute.status !== 'open') {
      throw new AppError('CONFLICT', 'This dispute is already decided', { reason: 'dispute_decided' });
    }
    if (dispute.mediatorId !== null && dispute.mediatorId !== mediatorId) {
      throw new AppError('CONFLICT', 'Another mediator has taken this case', {
        reason: 'dispute_taken',
        mediator_id: dispute.mediatorId,
      });
    }
    // No escrow can open while the deal is disputed, so none now means none ever held money.
    const [escrow] = await tx
      .select({ id: schema.escrows.id })
      .from(schema.escrows)
      .where(eq(schema.escrows.dealId, deal.id));
    // A release or split on a short escrow would pay the funded leg to its receiver while the other leg
    // pays nothing back: checked under the deal's lock, from the confirmed deposits.
    if (escrow && request.decision !== 'refund') {
      const short = await loadShortLegs(tx, escrow.id, {
        asset: deal.assetAmount,
        stable: deal.stableAmount,
      });
      if (short.length > 0) throw escrowNotFunded(request.decision, short);
      const decideBy = await escrowDecideBy(tx, escrow.id);
      if (decideBy && now >= decideBy) throw settlementWindowClosed(request.decision, decideBy);
      if (request.decision === 'split' && request.split) {
        // Travel paid out of a leg is gone: its receiver's share must fit in what is left.
        const receiverShares: Record<Leg, bigint> = {
          asset: BigInt(request.split.asset.buyer),
          stable: BigInt(request.split.stable.seller),
        };
        const over = (await loadLegsAfterTravel(tx, escrow.id, { inTransaction: true })).find(
          (row) => receiverShares[row.leg] > row.held,
        );
        if (over) throw splitBeyondTravel(deal, over, receiverShares[over.leg]);
      }
    }
    const { action, effect } = disputeResolution(request.decision, escrow !== undefined);
    const status = nextDealStatus(deal.status, action, 'mediator');
    // A deal with no escrow is cancelled and queues nothing; otherwise the escrow engine is told
    // what goes where.
    let amounts: ReturnType<typeof amountsText> | null = null;
    let instructionId: string | null = null;
    if (effect !== 'deal_cancelled') {
      const payout = disputePayout(
        { asset: BigInt(deal.assetAmount), stable: BigInt(deal.stableAmount) },
        request.decision,
        request.split && {
          asset: { buyer: BigInt(request.split.asset.buyer), seller: BigInt(request.split.asset.seller) },
          stable: { buyer: BigInt(request.split.stable.buyer), seller: BigInt(request.split.stable.seller) },
        },
      );
      amounts = amountsText(payout);
      const [instruction] = await tx
        .insert(schema.escrowInstructions)
        .values({
          dealId: deal.id,
          disputeId,
          kind: 'mediator_decision',
          payload: await instructionPayload(tx, deal, disputeId, request.decision, payout),
          status: 'queued',
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: schema.escrowInstructions.id });
      instructionId = instruction!.id;
    }

    await tx
      .update(schema.deals)
      .set({ status, updatedAt: now, ...(status === 'completed' ? { completedAt: now } : {}) })
      .where(eq(schema.deals.id, deal.id));
    await tx
      .update(schema.dealDisputes)
      .set({
        status: 'decided',
        mediatorId,
        decision: request.decision,
        decisionDetails: amounts ?? { effect },
        rationale: request.rationale,
        decidedBy: mediatorId,
        decidedAt: now,
        updatedAt: now,
      })
      .where(eq(schema.dealDisputes.id, disputeId));
    await appendDealEvent(tx, {
      dealId: deal.id,
      actorId: mediatorId,
      action: 'dispute_decided',
      payload: {
        dispute_id: disputeId,
        decision: request.decision,
        effect,
        amounts,
        rationale: request.rationale,
        escrow_instruction_id: instructionId,
        from_status: deal.status,
        to_status: status,
      },
      createdAt: now,
    });
    if (effect === 'deal_cancelled')
      await cancelOpenTravel(tx, { dealId: deal.id, actorId: mediatorId, now });
  });
  const [view] = await loadDisputes(deps.db, eq(schema.dealDisputes.id, disputeId));
  return view!;
}

/**
 * The refusal of a release or split once an Ethereum leg's deadline is within the margin: the engine
 * would hold its payouts (`legsStillLocked`), since a party may soon take its own leg back on-chain.
 */
function settlementWindowClosed(decision: 'release' | 'split', decideBy: Date): AppError {
  const when = formatUtcMinute(decideBy);
  return new AppError(
    'CONFLICT',
    `A ${decision} had to be decided by ${when}: the escrow's on-chain deadline is too near to pay its legs against each other, since a party may then take its own leg back. Only a refund can be decided, returning every deposit to the party that made it`,
    { reason: 'settlement_window_closed', decision, decide_by: decideBy.toISOString() },
  );
}

/** The refusal of a split whose share for a leg's receiver exceeds what travel left in the leg. */
function splitBeyondTravel(
  deal: typeof schema.deals.$inferSelect,
  leg: LegAfterTravel,
  share: bigint,
): AppError {
  const symbol = leg.leg === 'asset' ? deal.assetSymbol : deal.stableSymbol;
  const receiver = leg.leg === 'asset' ? 'buyer' : 'seller';
  const amount = (value: bigint) =>
    isTokenSymbol(symbol) ? `${formatAmount(value, tokenDecimals[symbol])} ${symbol}` : `${value} base units`;
  return new AppError(
    'INSUFFICIENT_BALANCE',
    `Travel of ${amount(leg.travel)} was paid out of the ${leg.leg} leg, which now holds ${amount(leg.held)}: the ${receiver}'s share of it cannot exceed that. Lower the ${receiver}'s share`,
    {
      reason: 'split_beyond_travel',
      leg: leg.leg,
      required: share.toString(),
      available: leg.held.toString(),
      travel_paid: leg.travel.toString(),
    },
  );
}

/** The refusal of a release or split on an escrow with short legs, naming them for the mediator. */
function escrowNotFunded(decision: 'release' | 'split', short: readonly ShortLeg[]): AppError {
  const named = short.length === 1 ? `the ${short[0]!.leg} leg is` : 'the asset and stable legs are';
  return new AppError(
    'INSUFFICIENT_BALANCE',
    `A ${decision} needs both legs of the escrow fully funded, and ${named} not: only a refund can be decided, returning every deposit to the party that made it`,
    { reason: 'escrow_not_funded', decision, short_legs: short },
  );
}

function amountsText(payout: DisputePayout) {
  return {
    asset: { buyer: payout.asset.buyer.toString(), seller: payout.asset.seller.toString() },
    stable: { buyer: payout.stable.buyer.toString(), seller: payout.stable.seller.toString() },
  };
}

/**
 * What the escrow engine carries out, complete in itself: per leg the chain, the token, the amount
 * held and who deposited it, and the base units (with the address, when the party has set one) that
 * go to each side. A party's share of the leg it receives goes to its payout address; the share of
 * the leg it deposited returns to its refund address. Fees are the escrow engine's to deduct.
 */
async function instructionPayload(
  tx: Transaction,
  deal: typeof schema.deals.$inferSelect,
  disputeId: string,
  decision: DisputeDecisionRequest['decision'],
  payout: DisputePayout,
) {
  const addresses = await tx
    .select()
    .from(schema.dealAddresses)
    .where(eq(schema.dealAddresses.dealId, deal.id));
  const of = (party: 'buyer' | 'seller') => addresses.find((row) => row.party === party);
  return {
    dispute_id: disputeId,
    decision,
    buyer_id: deal.buyerId,
    seller_id: deal.sellerId,
    legs: {
      asset: {
        chain: deal.assetChain,
        symbol: deal.assetSymbol,
        amount: deal.assetAmount,
        deposited_by: 'seller',
        to_buyer: payout.asset.buyer.toString(),
        to_seller: payout.asset.seller.toString(),
        buyer_address: of('buyer')?.payoutAddress ?? null,
        seller_address: of('seller')?.refundAddress ?? null,
      },
      stable: {
        chain: deal.stableChain,
        symbol: deal.stableSymbol,
        amount: deal.stableAmount,
        deposited_by: 'buyer',
        to_buyer: payout.stable.buyer.toString(),
        to_seller: payout.stable.seller.toString(),
        buyer_address: of('buyer')?.refundAddress ?? null,
        seller_address: of('seller')?.payoutAddress ?? null,
      },
    },
  };
}
