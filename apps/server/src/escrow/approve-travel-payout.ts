import { schema } from '@covenant/db';
import { AppError, type DealParty, formatAmount, type TokenSymbol, tokenDecimals } from '@covenant/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { findPartyDeal } from '../disputes/find-party-deal.js';
import { type Approval, verifyAndStoreApproval } from './approve-payout.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { loadEscrowBooks } from './escrow-rows.js';
import { travelNoteOf, travelPayerOf, travelShortfall } from './travel-payouts.js';

/**
 * A party approves the current quote of a travel item. The buyer (who deposited the stable leg)
 * approves with a signature over the item's payout (`signing_payload`), checked against the buyer's
 * key in the leg's custody; the seller approves without one. Once both approved, the payout is ready
 * for the platform's co-signature and goes out on the engine's next pass. A second approval of the
 * same quote by the same party changes nothing. Refused while the deal is not funded (a dispute
 * freezes travel payouts), and while the leg cannot pay the quote and still settle exactly.
 */
export async function approveTravelPayout(
  deps: EscrowEngineDeps,
  userId: string,
  dealId: string,
  itemId: string,
  approval: Approval | null,
): Promise<{ changed: boolean }> {
  const deal = await findPartyDeal(deps.db, userId, dealId);
  const party: DealParty = deal.role;
  const [item] = await deps.db
    .select()
    .from(schema.travelItems)
    .where(and(eq(schema.travelItems.id, itemId), eq(schema.travelItems.dealId, dealId)));
  if (!item) throw new AppError('NOT_FOUND', 'Travel item not found');
  const [already] = await deps.db
    .select()
    .from(schema.travelItemApprovals)
    .where(
      and(
        eq(schema.travelItemApprovals.itemId, itemId),
        eq(schema.travelItemApprovals.quoteVersion, item.quoteVersion),
        eq(schema.travelItemApprovals.party, party),
      ),
    );
  if (already && item.status !== 'requested' && item.status !== 'cancelled') return { changed: false };
  if (item.status !== 'quoted') {
    throw new AppError(
      'INVALID_STATE_TRANSITION',
      item.status === 'requested'
        ? 'This request has no quote to approve yet'
        : `This item is ${item.status}`,
      { status: item.status },
    );
  }
  if (deal.status !== 'escrow_funded') {
    throw new AppError(
      'TRAVEL_NOT_PAYABLE',
      deal.status === 'disputed'
        ? 'Travel payouts are frozen while the deal is disputed'
        : 'Travel is paid out of the escrow once both legs are funded',
      { status: deal.status },
    );
  }
  const [escrow] = await deps.db.select().from(schema.escrows).where(eq(schema.escrows.dealId, dealId));
  if (!escrow) throw new AppError('TRAVEL_NOT_PAYABLE', 'The deal has no escrow yet');
  const books = await loadEscrowBooks(deps.db, escrow.id);
  const leg = books.legs.find((row) => row.leg === 'stable');
  if (!leg) throw new AppError('TRAVEL_NOT_PAYABLE', 'The deal has no escrow yet');
  const chain = deps.chains.get(leg.chain);
  if (!chain?.adapter.partialPayouts) {
    throw new AppError('TRAVEL_NOT_PAYABLE', `Travel cannot be paid out of a ${leg.chain} escrow yet`, {
      chain: leg.chain,
    });
  }
  if (books.payout('stable')) {
    throw new AppError(
      'TRAVEL_NOT_PAYABLE',
      'The stable leg is already settling: no more travel can be paid from it',
    );
  }
  const amount = BigInt(item.quoteAmount ?? '0');
  const shortfall = travelShortfall(books, leg, amount, travelPayerOf(deal.meeting));
  if (shortfall === null) {
    throw new AppError(
      'TRAVEL_NOT_PAYABLE',
      'This quote is larger than what remains in the escrow for the seller: it cannot be paid from it',
      { amount: amount.toString() },
    );
  }
  if (shortfall > 0n) {
    throw new AppError(
      'TRAVEL_NOT_PAYABLE',
      `The buyer's share of this quote must be deposited first: send ${formatAmount(shortfall, tokenDecimals[leg.symbol as TokenSymbol])} ${leg.symbol} more to the stable leg's deposit address`,
      { shortfall: shortfall.toString(), deposit_address: leg.depositAddress },
    );
  }
  const payout = books
    .travelPayouts('stable')
    .find(
      (candidate) =>
        (candidate.status === 'collecting' || candidate.status === 'ready') &&
        travelNoteOf(candidate).item_id === itemId &&
        travelNoteOf(candidate).quote_version === item.quoteVersion,
    );
  const depositor = party === 'buyer';
  if (depositor) {
    if (!payout) {
      throw new AppError(
        'TRAVEL_NOT_PAYABLE',
        'This quote’s payout is not built yet: an earlier travel payment goes first. Try again shortly',
      );
    }
    if (!approval) {
      throw new AppError(
        'VALIDATION_FAILED',
        'As the buyer, approve with your signature over the signing payload',
        {
          issues: [{ path: '/signature', message: 'required from the stable leg’s depositor' }],
        },
      );
    }
    await verifyAndStoreApproval(deps, payout, leg, party, approval);
  }
  const now = deps.now();
  const both = await deps.db.transaction(async (tx) => {
    // Checked again with the deal locked: a dispute opened, or a settlement begun (`closeTravel`),
    // since the checks above either comes first, and the approval is refused, or sees it.
    const [current] = await tx
      .select({ status: schema.deals.status })
      .from(schema.deals)
      .where(eq(schema.deals.id, dealId))
      .for('update');
    if (current?.status !== 'escrow_funded') {
      throw new AppError(
        'TRAVEL_NOT_PAYABLE',
        current?.status === 'disputed'
          ? 'Travel payouts are frozen while the deal is disputed'
          : 'Travel is paid out of the escrow once both legs are funded',
        { status: current?.status },
      );
    }
    const [locked] = await tx
      .select()
      .from(schema.travelItems)
      .where(eq(schema.travelItems.id, itemId))
      .for('update');
    if (locked?.status !== 'quoted' || locked.quoteVersion !== item.quoteVersion) {
      throw new AppError('CONFLICT', 'The quote changed meanwhile: review the new one', {
        status: locked?.status,
      });
    }
    await tx
      .insert(schema.travelItemApprovals)
      .values({ itemId, quoteVersion: item.quoteVersion, party, userId, createdAt: now })
      .onConflictDoNothing();
    const approvals = await tx
      .select({ party: schema.travelItemApprovals.party })
      .from(schema.travelItemApprovals)
      .where(
        and(
          eq(schema.travelItemApprovals.itemId, itemId),
          eq(schema.travelItemApprovals.quoteVersion, item.quoteVersion),
        ),
      );
    const complete = approvals.length === 2 && payout !== undefined;
    if (complete) {
      // Its payout may have been superseded meanwhile (the escrow began to settle): then nothing is approved.
      const readied = await tx
        .update(schema.escrowPayouts)
        .set({ status: 'ready', updatedAt: now })
        .where(
          and(
            eq(schema.escrowPayouts.id, payout.id),
            inArray(schema.escrowPayouts.status, ['collecting', 'ready']),
          ),
        )
        .returning({ id: schema.escrowPayouts.id });
      if (readied.length === 0) {
        throw new AppError(
          'TRAVEL_NOT_PAYABLE',
          'The stable leg is already settling: no more travel can be paid from it',
        );
      }
      await tx
        .update(schema.travelItems)
        .set({ status: 'approved', updatedAt: now })
        .where(eq(schema.travelItems.id, itemId));
    }
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'travel_approved',
      payload: {
        item_id: itemId,
        quote_version: item.quoteVersion,
        party,
        amount: amount.toString(),
        both_approved: complete,
      },
      createdAt: now,
    });
    return complete;
  });
  if (both) deps.logger.info({ dealId, itemId }, 'travel payout approved by both parties');
  return { changed: true };
}
