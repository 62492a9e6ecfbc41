import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { createdAt, updatedAt } from './timestamps.js';

/**
 * The address each user signs escrow transactions with, one per chain. Ethereum addresses are kept
 * in their EIP-55 form; the index on the lower-cased address finds the owner of an address seen
 * on-chain whatever its case.
 */
export const walletAddresses = pgTable(
  'wallet_addresses',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    chain: text('chain').notNull(),
    address: text('address').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.chain] }),
    index('wallet_addresses_chain_address_idx').on(table.chain, sql`lower(${table.address})`),
  ],
);
