import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { createdAt } from './timestamps.js';

/** Where a user wants events delivered. The secret signs every delivery, so it is kept as given. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('webhook_endpoints_user_id_idx').on(table.userId, table.createdAt)],
);

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One event for one endpoint; the body is stored as sent so replays carry the same bytes. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    body: text('body').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    createdAt: createdAt(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  },
  (table) => [index('webhook_deliveries_endpoint_idx').on(table.endpointId, table.createdAt)],
);

/** Every HTTP attempt of a delivery, failed or not. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    /** The receiver's HTTP status; null when no answer came (refused, timed out, blocked address). */
    responseStatus: integer('response_status'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (table) => [index('webhook_attempts_delivery_idx').on(table.deliveryId, table.attemptedAt)],
);
