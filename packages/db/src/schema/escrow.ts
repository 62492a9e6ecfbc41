import { sql } from 'drizzle-orm';
import {
  bigint,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.js';
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
export type EscrowLedgerEntryKind =
  | 'deposit'
  | 'payout'
  | 'fee'
  | 'refund'
  | 'sweep'
  | 'network_fee'
  | 'travel';
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
 * The platform's key index per leg: Bitcoin derives the platform's key of a leg as a BIP 32 child
 * at this index, so no two legs share an address. A sequence, so concurrent escrows never get the
 * same index; Ethereum ignores it.
 */
export const escrowPlatformKeyIndexSeq = pgSequence('escrow_platform_key_index_seq', {
  startWith: 0,
  minValue: 0,
  maxValue: 2147483647,
});

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
    /** The platform's key index of this leg (see escrowPlatformKeyIndexSeq); never shown to clients. */
    platformKeyIndex: integer('platform_key_index')
      .notNull()
      .default(sql`nextval('escrow_platform_key_index_seq')`),
    /** What proves the leg's custody from public data (Bitcoin: witness script and public keys); null on Ethereum. */
    custody: jsonb('custody').$type<Record<string, unknown>>(),
    requiredConfirmations: integer('required_confirmations').notNull(),
    deadline: timestamp('deadline', { withTimezone: true }).notNull(),
    state: text('state').$type<EscrowLegState>().notNull().default('awaiting_deposit'),
    /**
     * When anyone may refund the leg's escrow on-chain: the funding deadline plus the settlement
     * window, so a funded deal has time to settle. Null on chains without such a timelock.
     */
    refundAfter: timestamp('refund_after', { withTimezone: true }),
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

/**
 * How far the watcher has read each chain: the last height scanned and that block's hash, so the
 * next scan starts after it and a changed hash at that height reveals a reorg.
 */
export const chainScanCursors = pgTable('chain_scan_cursors', {
  chain: text('chain').primaryKey(),
  scannedHeight: bigint('scanned_height', { mode: 'bigint' }).notNull(),
  scannedBlockRef: text('scanned_block_ref'),
  updatedAt: updatedAt(),
});

export type EscrowPayoutKind = 'release' | 'refund' | 'split' | 'travel';
/**
 * Why a payout exists: the deal's own settlement, a cancelled deal's refund, a mediator's decision,
 * money that reached a settled leg, returned to the depositor (on chains without a `sweep`), or a
 * travel quote both parties approved, paid out of the stable leg before it settles.
 */
export type EscrowPayoutSource = 'settlement' | 'cancellation' | 'mediator' | 'late_deposit' | 'travel';
/**
 * `collecting` waits for a party's approval; `ready` has it (and, for a settlement, waits for the
 * other leg's); `submitting` has its signed transaction stored and is being broadcast; `submitted`
 * was accepted by the node; `confirmed` is deep enough; `superseded` was replaced before it was
 * submitted (a dispute opened, a mediator decided); `failed` was refused by the chain for good.
 */
export type EscrowPayoutStatus =
  | 'collecting'
  | 'ready'
  | 'submitting'
  | 'submitted'
  | 'confirmed'
  | 'superseded'
  | 'failed';

/** A version of a payout's transaction that a higher-fee one replaced. */
export interface ReplacedTransaction {
  txRef: string;
  rawTransaction: string;
}

/**
 * The one payout that settles a leg, with what its signers sign (the chain's own format: EIP-712
 * typed data on Ethereum, amounts as strings) and, once it is being sent, the exact signed
 * transaction and its reference, stored before broadcast so a restart re-sends the same bytes.
 */
export const escrowPayouts = pgTable(
  'escrow_payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    escrowId: uuid('escrow_id').notNull(),
    leg: text('leg').$type<EscrowLegName>().notNull(),
    chain: text('chain').notNull(),
    kind: text('kind').$type<EscrowPayoutKind>().notNull(),
    source: text('source').$type<EscrowPayoutSource>().notNull(),
    /** The escrow instruction (mediator decision) this payout carries out. */
    instructionId: uuid('instruction_id'),
    payoutRef: text('payout_ref').notNull(),
    signingPayload: jsonb('signing_payload').$type<Record<string, unknown>>().notNull(),
    /** The transfers it makes, amounts as base-unit strings (the engine's settlement plan). */
    plan: jsonb('plan').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<EscrowPayoutStatus>().notNull().default('collecting'),
    rawTransaction: text('raw_transaction'),
    txRef: text('tx_ref'),
    /**
     * Earlier versions of the transaction, replaced by one paying a higher fee (same nonce) while
     * none was mined: any of them may still be the one mined.
     */
    replacedTransactions: jsonb('replaced_transactions')
      .$type<ReplacedTransaction[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /**
     * Children paying for the payout's transaction (Bitcoin CPFP), newest last, each stored before it
     * is sent; the payout's own transaction stays what it was.
     */
    feeBumpTransactions: jsonb('fee_bump_transactions')
      .$type<ReplacedTransaction[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    error: text('error'),
    /** When the current version of the transaction was stored to be sent. */
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    foreignKey({
      name: 'escrow_payouts_leg_fk',
      columns: [table.escrowId, table.leg],
      foreignColumns: [escrowLegs.escrowId, escrowLegs.leg],
    }),
    // One live payout per leg: a leg settles once. A late deposit's return comes after it, one at a
    // time; travel payouts come before it, one at a time.
    uniqueIndex('escrow_payouts_live_leg_idx')
      .on(table.escrowId, table.leg)
      .where(sql`${table.status} <> 'superseded' and ${table.source} not in ('late_deposit', 'travel')`),
    uniqueIndex('escrow_payouts_live_travel_idx')
      .on(table.escrowId, table.leg)
      .where(
        sql`${table.source} = 'travel' and ${table.status} not in ('superseded', 'confirmed', 'failed')`,
      ),
    uniqueIndex('escrow_payouts_live_late_deposit_idx')
      .on(table.escrowId, table.leg)
      .where(
        sql`${table.source} = 'late_deposit' and ${table.status} not in ('superseded', 'confirmed', 'failed')`,
      ),
    index('escrow_payouts_status_idx').on(table.status),
  ],
);

/**
 * What a relayer transaction does that is not a payout: deploying a leg's escrow, sweeping a late
 * deposit back to the depositor, returning a token other than the leg's.
 */
export type RelayerTransactionKind = 'deployment' | 'sweep' | 'foreign_asset_return';
/**
 * `submitting`: stored, being broadcast; `submitted`: accepted by the node, followed by each pass;
 * `confirmed`: mined (a deployment: the escrow's code is at its address); `failed`: reverted, or
 * never sent and its nonce taken by another transaction (the work is done again where it can be).
 */
export type RelayerTransactionStatus = 'submitting' | 'submitted' | 'confirmed' | 'failed';

/**
 * The platform's own transactions that are not payouts (deployments, sweeps, wrong-token returns),
 * stored signed before they are sent, like a payout's, so a crash never loses or doubles one, and
 * followed by the engine's passes to their block or replaced at a higher fee (same nonce) while
 * they wait: the relayer's turn ends once one is sent. `subject` is what the transaction is for: the
 * deposit address of a deployment, `escrowId:leg` of a sweep, `txRef:position` of the wrong-token
 * deposit a return sends back; one live transaction per kind and subject.
 */
export const escrowRelayerTransactions = pgTable(
  'escrow_relayer_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chain: text('chain').notNull(),
    kind: text('kind').$type<RelayerTransactionKind>().notNull(),
    subject: text('subject').notNull(),
    /** The escrow it serves; null for a deployment, sent before the escrow's rows are written. */
    escrowId: uuid('escrow_id'),
    leg: text('leg').$type<EscrowLegName>().notNull(),
    depositAddress: text('deposit_address').notNull(),
    status: text('status').$type<RelayerTransactionStatus>().notNull().default('submitting'),
    rawTransaction: text('raw_transaction').notNull(),
    txRef: text('tx_ref').notNull(),
    /** Earlier versions a higher-fee one replaced (same nonce): any of them may still be the one mined. */
    replacedTransactions: jsonb('replaced_transactions')
      .$type<ReplacedTransaction[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Children paying for it (CPFP); no relayer chain uses them today, kept for the shared fee-bump rules. */
    feeBumpTransactions: jsonb('fee_bump_transactions')
      .$type<ReplacedTransaction[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    error: text('error'),
    /** When the current version was stored to be sent: the wait before the next fee increase starts here. */
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('escrow_relayer_transactions_live_idx')
      .on(table.chain, table.kind, table.subject)
      .where(sql`${table.status} in ('submitting', 'submitted')`),
    index('escrow_relayer_transactions_subject_idx').on(table.chain, table.kind, table.subject),
    index('escrow_relayer_transactions_status_idx').on(table.status),
  ],
);

/** Approvals of a payout: a party's (verified on receipt) and the platform's co-signature. */
export const escrowPayoutSignatures = pgTable(
  'escrow_payout_signatures',
  {
    payoutId: uuid('payout_id')
      .notNull()
      .references(() => escrowPayouts.id),
    signer: text('signer').$type<'buyer' | 'seller' | 'platform'>().notNull(),
    signerAddress: text('signer_address').notNull(),
    signature: text('signature').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.payoutId, table.signer] })],
);

/**
 * A user's escrow seed, encrypted in the browser with an escrow password the server never sees.
 * The server keeps only the ciphertext and the key-derivation parameters needed to decrypt it.
 */
export const escrowKeys = pgTable('escrow_keys', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Base64 AES-256-GCM ciphertext (with its tag) of the seed. */
  ciphertext: text('ciphertext').notNull(),
  /** {kdf, hash, iterations, salt, iv} as the browser used them. */
  encryption: jsonb('encryption').$type<Record<string, unknown>>().notNull(),
  /** The Ethereum address derived from the seed, registered with wallets/connect. */
  ethereumAddress: text('ethereum_address').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Something staff must look at: a leg whose ledger does not reconcile, a payout the chain
 * refused. Open until resolved; one open alert per kind and subject.
 */
export const staffAlerts = pgTable(
  'staff_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** The staff member who resolved it; null while open and when the engine saw the problem gone itself. */
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('staff_alerts_open_idx')
      .on(table.kind, table.subject)
      .where(sql`${table.resolvedAt} is null`),
  ],
);
