import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { createdAt, updatedAt } from './timestamps.js';

export type DealStatus =
  | 'draft'
  | 'cis_submitted'
  | 'terms_agreed'
  | 'escrow_funded'
  | 'completed'
  | 'cancelled'
  | 'disputed';

/** Base-unit amounts: up to 78 digits covers any uint256, so wei amounts never overflow. */
const baseUnits = (name: string) => numeric(name, { precision: 78, scale: 0 }).notNull();

/** A trade between a buyer (who created it) and a seller (the chosen counterparty). */
export const deals = pgTable(
  'deals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id),
    assetChain: text('asset_chain').notNull(),
    assetSymbol: text('asset_symbol').notNull(),
    assetAmount: baseUnits('asset_amount'),
    stableChain: text('stable_chain').notNull(),
    stableSymbol: text('stable_symbol').notNull(),
    stableAmount: baseUnits('stable_amount'),
    meetingRequired: boolean('meeting_required').notNull().default(false),
    travelLocation: text('travel_location'),
    /**
     * The meeting the terms require (API field names: location, latitude, longitude, starts_on,
     * duration, travel_paid_by); null when none is required or its details are not proposed yet.
     */
    meeting: jsonb('meeting').$type<Record<string, unknown>>(),
    /**
     * A change of the meeting proposed after funding (the terms can no longer change then), waiting
     * for the other party's agreement; null when none is pending.
     */
    meetingProposal: jsonb('meeting_proposal').$type<Record<string, unknown>>(),
    meetingProposedBy: uuid('meeting_proposed_by').references(() => users.id),
    status: text('status').$type<DealStatus>().notNull().default('draft'),
    /** The latest proposed version of the terms (deal_terms_versions); 1 is the buyer's opening proposal. */
    termsVersion: integer('terms_version').notNull().default(1),
    /** Hours the parties have to fund the escrow once the terms are agreed (1 to 168). */
    fundingDeadlineHours: integer('funding_deadline_hours').notNull().default(24),
    /** The version both parties agreed, and the SHA-256 over it and both parties' addresses. */
    acceptedTermsVersion: integer('accepted_terms_version'),
    termsHash: text('terms_hash'),
    termsAgreedAt: timestamp('terms_agreed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    // Listing a party's deals newest first, with (created_at, id) as the pagination cursor.
    index('deals_buyer_created_idx').on(table.buyerId, table.createdAt.desc(), table.id.desc()),
    index('deals_seller_created_idx').on(table.sellerId, table.createdAt.desc(), table.id.desc()),
  ],
);

/** What happened to a deal, by whom, in order; rows are only ever appended. */
export const dealHistory = pgTable(
  'deal_history',
  {
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    action: text('action').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.dealId, table.seq] })],
);
