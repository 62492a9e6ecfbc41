import { type Db, schema } from '@covenant/db';
import type { StaffTravelItem, TravelItem } from '@covenant/domain';
import { asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Transaction } from '../deals/append-deal-event.js';
import { unsignedPayoutOf } from '../escrow/payout-variants.js';

type Reader = Pick<Db, 'select'> | Transaction;

/**
 * Travel items with what their views need from the deal (its parties, stable chain and token, the
 * meeting place) and the traveller's username, for any filter; `queue` orders open items first.
 */
export async function loadTravelItems(
  db: Reader,
  where: SQL | undefined,
  options: { queue?: boolean; limit?: number } = {},
): Promise<StaffTravelItem[]> {
  const items = schema.travelItems;
  const deals = schema.deals;
  const query = db
    .select({
      item: items,
      deal: {
        id: deals.id,
        status: deals.status,
        buyerId: deals.buyerId,
        stableChain: deals.stableChain,
        stableSymbol: deals.stableSymbol,
        travelLocation: deals.travelLocation,
        meeting: deals.meeting,
      },
      travellerUsername: schema.profiles.username,
    })
    .from(items)
    .innerJoin(deals, eq(deals.id, items.dealId))
    .leftJoin(
      schema.profiles,
      eq(
        schema.profiles.id,
        sql`case when ${items.traveller} = 'buyer' then ${deals.buyerId} else ${deals.sellerId} end`,
      ),
    )
    .where(where)
    .orderBy(
      ...(options.queue ? [sql`case when ${items.status} in ('requested', 'quoted') then 0 else 1 end`] : []),
      asc(items.createdAt),
      asc(items.id),
    );
  const rows = options.limit === undefined ? await query : await query.limit(options.limit);
  const approvals =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(schema.travelItemApprovals)
          .where(
            inArray(
              schema.travelItemApprovals.itemId,
              rows.map((row) => row.item.id),
            ),
          );
  const payoutIds = rows.map((row) => row.item.payoutId).filter((id): id is string => id !== null);
  const payouts =
    payoutIds.length === 0
      ? []
      : await db.select().from(schema.escrowPayouts).where(inArray(schema.escrowPayouts.id, payoutIds));
  return rows.map(({ item, deal, travellerUsername }) => ({
    ...presentItem(
      item,
      deal,
      approvals.filter(
        (approval) => approval.itemId === item.id && approval.quoteVersion === item.quoteVersion,
      ),
      payouts.find((payout) => payout.id === item.payoutId && payout.status !== 'superseded'),
    ),
    deal: {
      id: deal.id,
      status: deal.status,
      stable_chain: deal.stableChain,
      stable_symbol: deal.stableSymbol,
      travel_location: meetingPlace(deal),
    },
    traveller_username: travellerUsername,
  }));
}

/** Where the parties meet: the deal's travel location, or else the location of the meeting its terms carry. */
function meetingPlace(deal: { travelLocation: string | null; meeting: Record<string, unknown> | null }) {
  const location = deal.meeting?.location;
  return deal.travelLocation ?? (typeof location === 'string' ? location : null);
}

/** One item as the parties see it (the concierge's view without its deal and traveller). */
export function partyView({ deal: _deal, traveller_username: _name, ...item }: StaffTravelItem): TravelItem {
  return item;
}

/** One item by id, in the concierge's view. */
export async function loadTravelItem(db: Reader, itemId: string): Promise<StaffTravelItem> {
  const [item] = await loadTravelItems(db, eq(schema.travelItems.id, itemId));
  return item!;
}

function presentItem(
  item: typeof schema.travelItems.$inferSelect,
  deal: { buyerId: string; stableChain: string; stableSymbol: string },
  approvals: (typeof schema.travelItemApprovals.$inferSelect)[],
  payout: typeof schema.escrowPayouts.$inferSelect | undefined,
): TravelItem {
  const awaitingSignature = payout && (payout.status === 'collecting' || payout.status === 'ready');
  const quoted = item.quoteVersion > 0 && item.quoteAmount !== null && item.quotedAt !== null;
  return {
    id: item.id,
    deal_id: item.dealId,
    kind: item.kind,
    traveller: item.traveller,
    details: item.details,
    status: item.status,
    requested_by: item.requestedBy === deal.buyerId ? 'buyer' : 'seller',
    quote: quoted
      ? {
          version: item.quoteVersion,
          provider: item.quoteProvider ?? '',
          description: item.quoteDescription ?? '',
          amount: item.quoteAmount!,
          symbol: deal.stableSymbol,
          chain: deal.stableChain,
          payee_address: item.quotePayeeAddress ?? '',
          has_file: item.quoteFileId !== null,
          quoted_at: item.quotedAt!.toISOString(),
        }
      : null,
    approved_by: (['buyer', 'seller'] as const).filter((party) =>
      approvals.some((approval) => approval.party === party),
    ),
    // The partial payout the buyer (the stable leg's depositor) signs, while it awaits approval; its
    // transaction once sent.
    signing_payload: awaitingSignature
      ? payout.chain === 'ETH'
        ? { format: 'eip712', data: payout.signingPayload }
        : (unsignedPayoutOf(payout, 'buyer').signingPayload as TravelItem['signing_payload'])
      : null,
    transaction_hash: payout?.txRef ?? null,
    booked_at: item.bookedAt?.toISOString() ?? null,
    created_at: item.createdAt.toISOString(),
  };
}
