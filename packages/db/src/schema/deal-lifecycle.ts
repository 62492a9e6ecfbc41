import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { deals } from './deals.js';
import { storedFiles } from './files.js';
import { createdAt, updatedAt } from './timestamps.js';

export type DealParty = 'buyer' | 'seller';

/**
 * Every proposal of a deal's terms, kept forever: `terms` holds the API's field names (amounts as
 * base-unit strings, funding_deadline_hours, meeting_required, travel_location). The deals row
 * mirrors the latest version; acceptance names a version so nobody accepts terms they did not see.
 */
export const dealTermsVersions = pgTable(
  'deal_terms_versions',
  {
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id),
    version: integer('version').notNull(),
    proposedBy: uuid('proposed_by')
      .notNull()
      .references(() => users.id),
    terms: jsonb('terms').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.dealId, table.version] })],
);

/** Each party's own addresses on a deal: payout on the chain it receives on, refund on the one it deposits from. */
export const dealAddresses = pgTable(
  'deal_addresses',
  {
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id),
    party: text('party').$type<DealParty>().notNull(),
    payoutAddress: text('payout_address').notNull(),
    refundAddress: text('refund_address').notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.dealId, table.party] })],
);

/**
 * A Customer Information Sheet a user prepared once and can attach to deals. Everything in it is
 * personal data, so the structured form is stored as an encrypted file (JSON) like the optional
 * signed PDF; this row only links them to their owner.
 */
export const cisSheets = pgTable(
  'cis_sheets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    formFileId: uuid('form_file_id')
      .notNull()
      .references(() => storedFiles.id),
    pdfFileId: uuid('pdf_file_id').references(() => storedFiles.id),
    createdAt: createdAt(),
  },
  (table) => [index('cis_sheets_owner_idx').on(table.ownerId, table.createdAt.desc())],
);

export type CisReviewStatus = 'pending' | 'approved' | 'rejected';

/** The CIS each party attached to a deal, and the counterparty's review of it. */
export const dealCis = pgTable(
  'deal_cis',
  {
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id),
    party: text('party').$type<DealParty>().notNull(),
    cisId: uuid('cis_id')
      .notNull()
      .references(() => cisSheets.id),
    status: text('status').$type<CisReviewStatus>().notNull().default('pending'),
    reviewComment: text('review_comment'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    attachedAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.dealId, table.party] })],
);

export type DisputeStatus = 'open' | 'decided';
export type DisputeDecision = 'release' | 'refund' | 'split';

/** A dispute on a deal; at most one is open per deal. The decision is the mediator's, with a rationale. */
export const dealDisputes = pgTable(
  'deal_disputes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id),
    openedBy: uuid('opened_by')
      .notNull()
      .references(() => users.id),
    reason: text('reason').notNull(),
    /** The deal's status when the dispute was opened. */
    statusBefore: text('status_before').notNull(),
    status: text('status').$type<DisputeStatus>().notNull().default('open'),
    /** The mediator who took the case (null while it waits in the queue). */
    mediatorId: uuid('mediator_id').references(() => users.id),
    decision: text('decision').$type<DisputeDecision>(),
    /** For a split: base-unit amounts per leg to each party, e.g. {asset: {buyer, seller}, stable: {buyer, seller}}. */
    decisionDetails: jsonb('decision_details').$type<Record<string, unknown>>(),
    rationale: text('rationale'),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('deal_disputes_one_open_idx').on(table.dealId).where(sql`${table.status} = 'open'`),
    index('deal_disputes_status_created_idx').on(table.status, table.createdAt),
  ],
);

/** Files a party or mediator added to a dispute (stored encrypted, purpose 'dispute_evidence'). */
export const disputeEvidence = pgTable(
  'dispute_evidence',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    disputeId: uuid('dispute_id')
      .notNull()
      .references(() => dealDisputes.id),
    fileId: uuid('file_id')
      .notNull()
      .references(() => storedFiles.id),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (table) => [index('dispute_evidence_dispute_idx').on(table.disputeId)],
);

export type EscrowInstructionStatus = 'queued' | 'executing' | 'executed' | 'failed';

/**
 * Money movements decided off-chain and waiting for the escrow engine to carry them out on-chain
 * (a mediator's decision today). Written in the same transaction as the decision, so none is lost.
 */
export const escrowInstructions = pgTable(
  'escrow_instructions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id),
    disputeId: uuid('dispute_id').references(() => dealDisputes.id),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<EscrowInstructionStatus>().notNull().default('queued'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('escrow_instructions_status_idx').on(table.status, table.createdAt)],
);

/** Messages in a deal room between the parties (and the mediator during a dispute). */
export const dealMessages = pgTable(
  'deal_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('deal_messages_deal_created_idx').on(table.dealId, table.createdAt, table.id)],
);

/** In-app notifications; `emailed_at` is set once the matching e-mail went out (null: still to send). */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dealId: uuid('deal_id').references(() => deals.id),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('notifications_user_created_idx').on(table.userId, table.createdAt.desc(), table.id.desc()),
    index('notifications_unsent_idx').on(table.createdAt).where(sql`${table.emailedAt} is null`),
  ],
);
