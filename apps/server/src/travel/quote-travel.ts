import { schema } from '@covenant/db';
import {
  AppError,
  isChain,
  openTravelItemStatuses,
  type StaffTravelItem,
  type TravelQuoteRequest,
  validateChainAddress,
} from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { checkTravelDeal } from './check-travel-deal.js';
import { lockTravelItem, requireTravelStatus } from './lock-travel-item.js';
import { loadTravelItem } from './present-travel-items.js';
import type { TravelDeps } from './travel-deps.js';

/**
 * The concierge prices an item in the deal's stable token, payable to the provider's address on the
 * stable leg's chain (checked for that chain, as payout addresses are). A new quote replaces the last
 * one and raises `quote_version`, so approvals of the old price no longer count.
 */
export async function quoteTravel(
  deps: Pick<TravelDeps, 'db' | 'now' | 'bitcoinNetwork'>,
  conciergeId: string,
  itemId: string,
  quote: TravelQuoteRequest,
): Promise<StaffTravelItem> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { item, deal } = await lockTravelItem(tx, itemId);
    checkTravelDeal(deal);
    requireTravelStatus(item, openTravelItemStatuses, 'An item can be quoted');
    const chain = deal.stableChain;
    const check = isChain(chain)
      ? validateChainAddress(chain, quote.payee_address, { bitcoinNetwork: deps.bitcoinNetwork })
      : { ok: false as const, reason: 'unknown chain' };
    if (!check.ok) {
      throw new AppError('VALIDATION_FAILED', `The payee address does not fit the ${chain} chain`, {
        fields: { payee_address: `${check.reason} (${chain})` },
      });
    }
    const version = item.quoteVersion + 1;
    await tx
      .update(schema.travelItems)
      .set({
        status: 'quoted',
        quoteVersion: version,
        quoteProvider: quote.provider,
        quoteDescription: quote.description,
        quoteAmount: quote.amount,
        quotePayeeAddress: quote.payee_address,
        quotedBy: conciergeId,
        quotedAt: now,
        updatedAt: now,
      })
      .where(eq(schema.travelItems.id, itemId));
    await appendDealEvent(tx, {
      dealId: deal.id,
      actorId: conciergeId,
      action: 'travel_quoted',
      payload: {
        item_id: itemId,
        kind: item.kind,
        version,
        provider: quote.provider,
        description: quote.description,
        amount: quote.amount,
        symbol: deal.stableSymbol,
        chain,
        payee_address: quote.payee_address,
      },
      createdAt: now,
    });
  });
  return loadTravelItem(deps.db, itemId);
}
