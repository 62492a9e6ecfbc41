import {
  bigint,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import type { DealParty } from './deal-lifecycle.js';
import { deals } from './deals.js';
import { storedFiles } from './files.js';
import { createdAt, updatedAt } from './timestamps.js';

export type MeetingCheckInMethod = 'qr' | 'code';

/**
 * A party's check-in at the deal's meeting: made by entering the counterparty's rotating code
 * (scanned from its QR or typed), so a row proves both were together. The position the browser
 * shared is personal data: sealed (AES-256-GCM under the file master key, the row's key as context)
 * and erased after the retention the privacy policy states; `within_radius` stays.
 */
export const meetingCheckIns = pgTable(
  'meeting_check_ins',
  {
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id),
    party: text('party').$type<DealParty>().notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    method: text('method').$type<MeetingCheckInMethod>().notNull(),
    /** Whose code was presented (the other party) and its time step: one use per code. */
    codeParty: text('code_party').$type<DealParty>().notNull(),
    codeStep: bigint('code_step', { mode: 'bigint' }).notNull(),
    /** Sealed JSON {latitude, longitude, accuracy}; null when the browser shared none, or once erased. */
    positionSealed: text('position_sealed'),
    /** Metres from the meeting's coordinates, rounded; null without a position. */
    distanceMeters: integer('distance_meters'),
    /** Null without a position: flagged for the mediators like a check-in outside the radius. */
    withinRadius: text('within_radius').$type<'yes' | 'no' | 'unknown'>().notNull(),
    positionErasedAt: timestamp('position_erased_at', { withTimezone: true }),
    checkedInAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.dealId, table.party] }),
    uniqueIndex('meeting_check_ins_code_idx').on(table.dealId, table.codeParty, table.codeStep),
  ],
);

/** A party's waiver of the deal's meeting; settlement proceeds without check-in once both waived. */
export const meetingWaivers = pgTable(
  'meeting_waivers',
  {
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id),
    party: text('party').$type<DealParty>().notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.dealId, table.party] })],
);

export type TravelKind = 'flight' | 'hotel' | 'ground';
/**
 * `requested` waits for the concierge's quote; `quoted` for both parties' approvals; `approved`
 * has them and its payout is on its way; `paid` once the payout confirmed on-chain; `booked` once the
 * concierge confirmed the booking; `cancelled` by the requester before payment, or when the deal
 * closed first.
 */
export type TravelItemStatus = 'requested' | 'quoted' | 'approved' | 'paid' | 'booked' | 'cancelled';

/**
 * One item of travel for a deal's meeting (a flight, a hotel, ground transport), requested by a
 * party, quoted by the concierge in the stable leg's token, and paid out of the stable leg's escrow
 * once both parties approve. A new quote raises `quote_version`, so older approvals no longer count.
 */
export const travelItems = pgTable(
  'travel_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id),
    kind: text('kind').$type<TravelKind>().notNull(),
    traveller: text('traveller').$type<DealParty>().notNull(),
    details: text('details').notNull(),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    status: text('status').$type<TravelItemStatus>().notNull().default('requested'),
    quoteVersion: integer('quote_version').notNull().default(0),
    quoteProvider: text('quote_provider'),
    quoteDescription: text('quote_description'),
    /** Base units of the deal's stable token, on the stable leg's chain. */
    quoteAmount: numeric('quote_amount', { precision: 78, scale: 0 }),
    quotePayeeAddress: text('quote_payee_address'),
    quoteFileId: uuid('quote_file_id').references(() => storedFiles.id),
    quotedBy: uuid('quoted_by').references(() => users.id),
    quotedAt: timestamp('quoted_at', { withTimezone: true }),
    /** The escrow payout that pays the quote (source 'travel'). */
    payoutId: uuid('payout_id'),
    bookedBy: uuid('booked_by').references(() => users.id),
    bookedAt: timestamp('booked_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('travel_items_deal_idx').on(table.dealId, table.createdAt),
    // The concierge queue: open items oldest first.
    index('travel_items_status_created_idx').on(table.status, table.createdAt),
  ],
);

/** A party's approval of a travel item's quote (of one quote version). */
export const travelItemApprovals = pgTable(
  'travel_item_approvals',
  {
    itemId: uuid('item_id')
      .notNull()
      .references(() => travelItems.id),
    quoteVersion: integer('quote_version').notNull(),
    party: text('party').$type<DealParty>().notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.itemId, table.quoteVersion, table.party] })],
);
