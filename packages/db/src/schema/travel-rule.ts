import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { deals } from './deals.js';

/**
 * The Travel Rule information exchanged when a deal of $1,000 or more opened its escrow: the IVMS 101
 * document of both legs (originator and beneficiary, with their accounts). It is personal data, so the
 * JSON is sealed with the file master key under `travel-rule:<deal id>` (ADR 018, ADR 024).
 */
export const dealTravelRule = pgTable('deal_travel_rule', {
  dealId: uuid('deal_id')
    .primaryKey()
    .references(() => deals.id),
  documentSealed: text('document_sealed').notNull(),
  exchangedAt: timestamp('exchanged_at', { withTimezone: true }).notNull(),
});
