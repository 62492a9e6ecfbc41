import { sql } from 'drizzle-orm';
import {
  date,
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
import { type TradingTier, users } from './auth.js';
import { storedFiles } from './files.js';

export type KycSubmissionStatus = 'pending' | 'approved' | 'rejected';
export type KycSubjectType = 'individual' | 'company';

/** A trader's request to be verified (or moved to another tier), with the compliance decision on it. */
export const kycSubmissions = pgTable(
  'kyc_submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<KycSubmissionStatus>().notNull().default('pending'),
    subjectType: text('subject_type').$type<KycSubjectType>().notNull(),
    legalName: text('legal_name').notNull(),
    /** ISO 3166-1 alpha-2. */
    country: text('country').notNull(),
    /** Individuals only. */
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    /** Individuals only: the city of birth and its country (ISO 3166-1 alpha-2); null on older requests. */
    placeOfBirthCity: text('place_of_birth_city'),
    placeOfBirthCountry: text('place_of_birth_country'),
    /** Companies only. */
    registrationNumber: text('registration_number'),
    /** Companies only: the GLEIF registration authority code (RA and 6 digits) of a number that is no LEI. */
    registrationAuthority: text('registration_authority'),
    address: text('address').notNull(),
    /** The town or city of the address; null on requests sent before it was asked. */
    townName: text('town_name'),
    requestedTier: text('requested_tier').$type<TradingTier>().notNull(),
    approvedTier: text('approved_tier').$type<TradingTier>(),
    /** The per-transaction limit granted, whole US dollars. */
    limitUsd: numeric('limit_usd', { precision: 20, scale: 0 }),
    rejectionReason: text('rejection_reason'),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (table) => [
    index('kyc_submissions_user_id_idx').on(table.userId, table.submittedAt),
    index('kyc_submissions_status_idx').on(table.status, table.submittedAt),
    // One open request per trader, held by the database even when two submissions race.
    uniqueIndex('kyc_submissions_one_pending_idx').on(table.userId).where(sql`${table.status} = 'pending'`),
  ],
);

/** The documents of a submission, in the order they were uploaded. */
export const kycDocuments = pgTable(
  'kyc_documents',
  {
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => kycSubmissions.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => storedFiles.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (table) => [primaryKey({ columns: [table.submissionId, table.fileId] })],
);
