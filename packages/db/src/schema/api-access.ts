import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { createdAt, updatedAt } from './timestamps.js';

export type ApiAccessTier = 'standard' | 'premium';

/**
 * What an API key may do (ADR 013): `read` calls the read operations, `trade` adds deal actions.
 * A key never reaches sensitive or staff operations, whatever its scopes.
 */
export type ApiKeyScope = 'read' | 'trade';

/** A user's API access tier (spec §6: Standard or Premium, told apart by rate limit); no row = standard. */
export const apiAccessTiers = pgTable('api_access_tiers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tier: text('tier').$type<ApiAccessTier>().notNull(),
  updatedAt: updatedAt(),
});

/** Named API keys. Only a SHA-256 of the key is kept; the prefix lets people recognise their keys. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** Keys made before scopes existed keep both, which is what they could do then. */
    scopes: text('scopes').array().$type<ApiKeyScope[]>().notNull().default(['read', 'trade']),
  },
  (table) => [index('api_keys_user_id_idx').on(table.userId, table.createdAt)],
);

/**
 * The first answer to a POST with an `Idempotency-Key`, replayed for a retry of the same request.
 * A row without a status is a request still running.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of method, path, body and user: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.key] }),
    index('idempotency_keys_created_at_idx').on(table.createdAt),
  ],
);
