import { sql } from 'drizzle-orm';
import { bigint, index, pgSequence, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { createdAt, updatedAt } from './timestamps.js';

export type SupportKind = 'contact' | 'ticket';
export type SupportStatus = 'open' | 'in_progress' | 'resolved' | 'closed';

/**
 * Numbers for the references shown to senders (CNT-2026-000123, TKT-2026-000045): one sequence per
 * kind, so the numbers count up without gaps a visitor could use and are never reused.
 */
export const contactReferenceSequence = pgSequence('support_contact_reference_seq');
export const ticketReferenceSequence = pgSequence('support_ticket_reference_seq');

/**
 * Contact form messages and Help Center tickets in one inbox. Contact messages carry the sender's
 * name, phone and topic; tickets a free subject and a category. `user_id` links a signed-in sender.
 */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull().unique(),
    /** The sequence value behind the reference, kept for ordering and lookups by number. */
    number: bigint('number', { mode: 'number' }).notNull(),
    kind: text('kind').$type<SupportKind>().notNull(),
    status: text('status').$type<SupportStatus>().notNull().default('open'),
    priority: text('priority').$type<'low' | 'normal' | 'high' | 'urgent'>().notNull(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    phone: text('phone'),
    /** The contact form's topic (account, trading, escrow, …). */
    topic: text('topic'),
    /** The ticket's own subject line. */
    subject: text('subject'),
    /** The ticket's category (technical_issue, …). */
    category: text('category'),
    body: text('body').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // The inbox lists newest first, filtered by status and kind, paging on (created_at, id).
    index('support_messages_created_idx').on(table.createdAt.desc(), table.id.desc()),
    index('support_messages_status_idx').on(table.status, table.createdAt.desc()),
    index('support_messages_email_idx').on(sql`lower(${table.email})`),
  ],
);

/** Staff answers, each e-mailed to the sender and kept in the message's thread. */
export const supportReplies = pgTable(
  'support_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => supportMessages.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorEmail: text('author_email').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('support_replies_message_idx').on(table.messageId, table.createdAt)],
);
