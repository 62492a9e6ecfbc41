import { integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { deals } from './deals.js';
import { createdAt } from './timestamps.js';

/**
 * The tamper-evident record of a deal: rows are only appended (the migration adds a trigger that
 * refuses UPDATE, DELETE and TRUNCATE), and each row's hash covers the previous row's hash and the
 * row's canonical JSON, so an edit behind the application's back breaks the chain from there on.
 * docs/audit-trail.md defines the hash.
 */
export const dealAuditEntries = pgTable(
  'deal_audit_entries',
  {
    // No cascade: a deal with an audit trail is never deleted.
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id),
    seq: integer('seq').notNull(),
    actorId: uuid('actor_id').references(() => users.id),
    action: text('action').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (table) => [primaryKey({ columns: [table.dealId, table.seq] })],
);
