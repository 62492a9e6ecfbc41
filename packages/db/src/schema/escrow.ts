import {
  bigint,
  foreignKey,
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
import { deals } from './deals.js';
import { createdAt, updatedAt } from './timestamps.js';

export type EscrowStatus = 'awaiting_funding' | 'funded' | 'settling' | 'settled' | 'refunding' | 'refunded';
export type EscrowLegName = 'asset' | 'stable';
export type EscrowLegState =
  | 'awaiting_deposit'
  | 'partially_funded'
  | 'funded'
  | 'releasing'
  | 'released'
  | 'refunding'
  | 'refunded';
export type EscrowLedgerEntryKind = 'deposit' | 'payout' | 'fee' | 'refund' | 'sweep';
export type EscrowLedgerEntryStatus = 'pending' | 'confirmed' | 'reorged';

/** Base-unit amounts as numeric(78,0): any uint256 fits. Drizzle reads them as strings; code converts to bigint. */
const baseUnits = (name: string) => numeric(name, { precision: 78, scale: 0 }).notNull();

/** One escrow per deal, created once the terms are agreed. */
export const escrows = pgTable(
  'escrows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id),
    status: text('status').$type<EscrowStatus>().notNull().default('awaiting_funding'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('escrows_deal_idx').on(table.dealId)],
);

/**
 * The two legs of an escrow, each fixed by the accepted terms: where it is deposited, how much,
 * who gets it, where it goes back, and the three keys its custody was derived from. `state` mirrors
 * what the leg's ledger says (the engine derives it) so lists and jobs can filter on it.
 */
export const escrowLegs = pgTable(
  'escrow_legs',
  {
    escrowId: uuid('escrow_id')
      .notNull()
      .references(() => escrows.id),
    leg: text('leg').$type<EscrowLegName>().notNull(),
    chain: text('chain').notNull(),
    symbol: text('symbol').notNull(),
    /** The token contract or mint; null for the chain's native coin. */
    tokenAddress: text('token_address'),
    requiredAmount: baseUnits('required_amount'),
    depositAddress: text('deposit_address').notNull(),
    depositorRefundAddress: text('depositor_refund_address').notNull(),
    receiverPayoutAddress: text('receiver_payout_address').notNull(),
    buyerSigner: text('buyer_signer').notNull(),
    sellerSigner: text('seller_signer').notNull(),
    platformSigner: text('platform_signer').notNull(),
    requiredConfirmations: integer('required_confirmations').notNull(),
    deadline: timestamp('deadline', { withTimezone: true }).notNull(),
    state: text('state').$type<EscrowLegState>().notNull().default('awaiting_deposit'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.escrowId, table.leg] }),
    // The watcher's lookup from an address seen on-chain to its leg, whatever the number of open escrows.
    uniqueIndex('escrow_legs_chain_deposit_address_idx').on(table.chain, table.depositAddress),
    // The deadline job: unfunded legs whose deadline has passed.
    index('escrow_legs_state_deadline_idx').on(table.state, table.deadline),
  ],
);

/**
 * Every on-chain movement seen for a leg, in and out. A movement is identified on its chain by its
 * transaction, its position in it (log index on Ethereum, vout on Bitcoin, instruction index on
 * Solana) and its kind, so recording it twice is impossible. Rows are not deleted: a reorg marks
 * them `reorged`.
 */
export const escrowLedgerEntries = pgTable(
  'escrow_ledger_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    escrowId: uuid('escrow_id').notNull(),
    leg: text('leg').$type<EscrowLegName>().notNull(),
    chain: text('chain').notNull(),
    kind: text('kind').$type<EscrowLedgerEntryKind>().notNull(),
    amount: baseUnits('amount'),
    txRef: text('tx_ref').notNull(),
    position: integer('position').notNull(),
    /** Who received an outgoing movement; who sent a deposit, when the chain names one (not on Bitcoin). */
    counterpartyAddress: text('counterparty_address'),
    /** The block hash or slot that included the transaction; null while unconfirmed. */
    blockRef: text('block_ref'),
    blockHeight: bigint('block_height', { mode: 'bigint' }),
    confirmations: integer('confirmations').notNull().default(0),
    status: text('status').$type<EscrowLedgerEntryStatus>().notNull().default('pending'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    foreignKey({
      // Named here: the generated name would pass PostgreSQL's 63-character limit and be cut short.
      name: 'escrow_ledger_entries_leg_fk',
      columns: [table.escrowId, table.leg],
      foreignColumns: [escrowLegs.escrowId, escrowLegs.leg],
    }),
    uniqueIndex('escrow_ledger_entries_movement_idx').on(
      table.chain,
      table.txRef,
      table.position,
      table.kind,
    ),
    index('escrow_ledger_entries_leg_idx').on(table.escrowId, table.leg),
    // Confirming pending entries and watching recent ones for reorgs.
    index('escrow_ledger_entries_status_idx').on(table.chain, table.status),
  ],
);
