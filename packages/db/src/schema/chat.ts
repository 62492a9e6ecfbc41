import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { storedFiles } from './files.js';
import { createdAt, updatedAt } from './timestamps.js';

export type ChatStatus = 'open' | 'closed';
/** `live`: answered in the widget; `email`: opened while no staff member was online, answered by e-mail. */
export type ChatMode = 'live' | 'email';
export type ChatAuthor = 'visitor' | 'staff';

/**
 * A live chat between a visitor (or a signed-in user) and support staff. The visitor holds a random
 * token, kept in the browser; only its SHA-256 is stored, and it is the only way in for the visitor.
 */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    email: text('email').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').$type<ChatStatus>().notNull().default('open'),
    mode: text('mode').$type<ChatMode>().notNull().default('live'),
    assignedTo: uuid('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('chat_conversations_status_idx').on(table.status, table.lastMessageAt.desc())],
);

/** Every message of a conversation, kept after it closes: the history. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id, { onDelete: 'cascade' }),
    author: text('author').$type<ChatAuthor>().notNull(),
    /** The staff member who wrote it (null for the visitor). */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** The text; empty when the message is only a file. */
    body: text('body').notNull(),
    /** A file sent with the message (stored encrypted, purpose 'chat_attachment'). */
    fileId: uuid('file_id').references(() => storedFiles.id, { onDelete: 'set null' }),
    /** A staff answer to a conversation in `email` mode: when it was e-mailed to the visitor. */
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('chat_messages_conversation_idx').on(table.conversationId, table.createdAt)],
);

/** Answers staff reuse, shared by the whole support team. */
export const chatCannedReplies = pgTable('chat_canned_replies', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/**
 * One row per open staff console stream, refreshed at each keepalive and removed when it closes:
 * staff are online while a row is recent, whichever replica holds the stream.
 */
export const chatStaffPresence = pgTable(
  'chat_staff_presence',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('chat_staff_presence_seen_idx').on(table.lastSeenAt)],
);
