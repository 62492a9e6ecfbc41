import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { createdAt, updatedAt } from './timestamps.js';

/**
 * The signer each user signs escrow transactions with, one per chain. `address` holds the chain's
 * signer: an address on Ethereum (kept in its EIP-55 form), a compressed secp256k1 public key on
 * Bitcoin (66 lower-case hex digits: a 2-of-3 multisig is built over keys, not addresses). The index on the lower-cased column finds the owner of an
 * address seen on-chain whatever its case.
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
