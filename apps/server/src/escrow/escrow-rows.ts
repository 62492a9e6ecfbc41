import { type Db, schema } from '@covenant/db';
import type { Chain, TokenSymbol } from '@covenant/domain';
import {
  confirmedDeposits,
  type DepositOutput,
  type EscrowLeg,
  heldForPayout,
  isConfirmed,
  type LedgerEntry,
  type Leg,
  type LegState,
  type SignedTransaction,
} from '@covenant/escrow';
import { and, eq, inArray, lt, ne, notExists, type SQL } from 'drizzle-orm';
import type { Transaction } from '../deals/append-deal-event.js';

export type LegRow = typeof schema.escrowLegs.$inferSelect;
export type LedgerRow = typeof schema.escrowLedgerEntries.$inferSelect;
export type PayoutRow = typeof schema.escrowPayouts.$inferSelect;
export type EscrowRow = typeof schema.escrows.$inferSelect;

/** A leg row as the engine's type. */
export function legOf(row: LegRow): EscrowLeg {
  return {
    escrowId: row.escrowId,
    leg: row.leg,
    chain: row.chain as Chain,
    symbol: row.symbol as TokenSymbol,
    tokenAddress: row.tokenAddress,
    requiredAmount: BigInt(row.requiredAmount),
    depositAddress: row.depositAddress,
    depositorRefundAddress: row.depositorRefundAddress,
    receiverPayoutAddress: row.receiverPayoutAddress,
    requiredConfirmations: row.requiredConfirmations,
    deadline: row.deadline,
    refundAfter: row.refundAfter,
    signers: { buyer: row.buyerSigner, seller: row.sellerSigner, platform: row.platformSigner },
  };
}

/** A leg row as the adapters take it to build a payout: with the platform's key index of the leg. */
export function payableLegOf(row: LegRow): EscrowLeg & { platformKeyIndex: number } {
  return { ...legOf(row), platformKeyIndex: row.platformKeyIndex };
}

/** The leg's confirmed deposit outputs from its ledger: what a UTXO chain's payout spends. */
export function depositOutputsOf(row: LegRow, ledger: readonly LedgerRow[]): DepositOutput[] {
  return ledger
    .filter(
      (entry) => entry.kind === 'deposit' && isConfirmed(ledgerEntryOf(entry), row.requiredConfirmations),
    )
    .map((entry) => ({ txRef: entry.txRef, position: entry.position, amount: BigInt(entry.amount) }))
    .sort((a, b) => a.txRef.localeCompare(b.txRef) || a.position - b.position);
}

export function ledgerEntryOf(row: LedgerRow): LedgerEntry {
  return {
    kind: row.kind,
    amount: BigInt(row.amount),
    txRef: row.txRef,
    position: row.position,
    blockRef: row.blockRef,
    height: row.blockHeight,
    confirmations: row.confirmations,
    status: row.status,
  };
}

/**
 * An escrow's legs, ledgers and live (not superseded) payouts. The reads are sent together, or one
 * after the other when `db` is a transaction (`inTransaction`): on PGlite it runs one statement at a time.
 */
export async function loadEscrowBooks(
  db: Db | Transaction,
  escrowId: string,
  { inTransaction }: { inTransaction?: boolean } = {},
) {
  const readLegs = () => db.select().from(schema.escrowLegs).where(eq(schema.escrowLegs.escrowId, escrowId));
  const readLedger = () =>
    db.select().from(schema.escrowLedgerEntries).where(eq(schema.escrowLedgerEntries.escrowId, escrowId));
  const readPayouts = () =>
    db
      .select()
      .from(schema.escrowPayouts)
      .where(and(eq(schema.escrowPayouts.escrowId, escrowId), ne(schema.escrowPayouts.status, 'superseded')));
  const [legRows, ledgerRows, payoutRows] = inTransaction
    ? [await readLegs(), await readLedger(), await readPayouts()]
    : await Promise.all([readLegs(), readLedger(), readPayouts()]);
  const signatureRows =
    payoutRows.length === 0
      ? []
      : await db
          .select()
          .from(schema.escrowPayoutSignatures)
          .where(
            inArray(
              schema.escrowPayoutSignatures.payoutId,
              payoutRows.map((payout) => payout.id),
            ),
          );
  const byLeg = <Row extends { leg: Leg }>(rows: Row[], leg: Leg) => rows.filter((row) => row.leg === leg);
  return {
    legs: legRows.sort((a, b) => a.leg.localeCompare(b.leg)),
    ledger: (leg: Leg) => byLeg(ledgerRows, leg),
    /** The leg's own payout (settlement, refund or mediator decision). */
    payout: (leg: Leg) =>
      byLeg(payoutRows, leg).find((row) => row.source !== 'late_deposit' && row.source !== 'travel') ?? null,
    /** The leg's travel payouts (quotes both parties approved, paid before it settles), oldest first. */
    travelPayouts: (leg: Leg) =>
      byLeg(payoutRows, leg)
        .filter((row) => row.source === 'travel')
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()),
    /** The leg's late-deposit returns, oldest first (chains without a sweep). */
    lateDepositPayouts: (leg: Leg) =>
      byLeg(payoutRows, leg)
        .filter((row) => row.source === 'late_deposit')
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()),
    signatures: (payoutId: string) => signatureRows.filter((row) => row.payoutId === payoutId),
  };
}
export type EscrowBooks = Awaited<ReturnType<typeof loadEscrowBooks>>;

/** A leg's confirmed deposits, from its ledger rows: what it holds for a payout. */
export function receivedOf(row: LegRow, ledger: readonly LedgerRow[]): bigint {
  return confirmedDeposits({
    requiredAmount: BigInt(row.requiredAmount),
    requiredConfirmations: row.requiredConfirmations,
    ledger: ledger.map(ledgerEntryOf),
  });
}

/** What a leg still holds, from its ledger rows: confirmed deposits less everything gone or going. */
export function heldOf(row: LegRow, ledger: readonly LedgerRow[]): bigint {
  return heldForPayout({
    requiredAmount: BigInt(row.requiredAmount),
    requiredConfirmations: row.requiredConfirmations,
    ledger: ledger.map(ledgerEntryOf),
  });
}

/** Sets a leg's state (sending a payout sets releasing/refunding before its ledger says so). */
export async function setLegState(
  db: Db,
  escrowId: string,
  leg: Leg,
  state: LegState,
  now: Date,
): Promise<void> {
  await db
    .update(schema.escrowLegs)
    .set({ state, updatedAt: now })
    .where(and(eq(schema.escrowLegs.escrowId, escrowId), eq(schema.escrowLegs.leg, leg)));
}

/**
 * The transactions that paid an escrow out: the buyer receives the asset leg, the seller the stable
 * leg, and on Ethereum each payout transaction also paid that leg's fee.
 */
export function settlementTransactionsOf(books: EscrowBooks): {
  buyer: string | null;
  seller: string | null;
  fee: string[];
} {
  const txOf = (leg: Leg) => books.payout(leg)?.txRef ?? null;
  const paid = [txOf('asset'), txOf('stable')].filter((tx): tx is string => tx !== null);
  return { buyer: txOf('asset'), seller: txOf('stable'), fee: [...new Set(paid)] };
}

/** The deposit outputs a payout spends, as its stored plan lists them (empty on account chains' older payouts). */
export function plannedDepositsOf(payout: Pick<PayoutRow, 'plan'>): DepositOutput[] {
  const deposits = (payout.plan as { deposits?: { txRef: string; position: number; amount: string }[] })
    .deposits;
  return (deposits ?? []).map((deposit) => ({
    txRef: deposit.txRef,
    position: deposit.position,
    amount: BigInt(deposit.amount),
  }));
}

/** The payout's stored signed transaction, null before one is stored. */
export function storedTransactionOf(payout: PayoutRow): SignedTransaction | null {
  if (!payout.rawTransaction || !payout.txRef) return null;
  return { rawTransaction: payout.rawTransaction, txRef: payout.txRef };
}

/**
 * The escrows in `escrowStatus` of deals in `dealStatus` with a leg whose `due` time (its funding
 * `deadline`, or its on-chain `refundAfter`) comes before `before`; with `unlessAudited`, only deals
 * whose audit trail has no entry of that action yet; with `where`, only those it holds for too
 * (so a step does not lock and re-read a deal every pass only to find nothing to do). The deadline
 * steps' work list; each step checks again under the deal's lock.
 */
export function escrowsWithLegDue(
  db: Db,
  filter: {
    escrowStatus: EscrowRow['status'];
    dealStatus: (typeof schema.deals.$inferSelect)['status'];
    due: 'deadline' | 'refundAfter';
    before: Date;
    unlessAudited?: string;
    where?: SQL;
  },
) {
  const audit = schema.dealAuditEntries;
  return db
    .selectDistinct({ escrowId: schema.escrows.id, dealId: schema.escrows.dealId })
    .from(schema.escrows)
    .innerJoin(schema.escrowLegs, eq(schema.escrowLegs.escrowId, schema.escrows.id))
    .innerJoin(schema.deals, eq(schema.deals.id, schema.escrows.dealId))
    .where(
      and(
        eq(schema.escrows.status, filter.escrowStatus),
        eq(schema.deals.status, filter.dealStatus),
        lt(schema.escrowLegs[filter.due], filter.before),
        filter.unlessAudited
          ? notExists(
              db
                .select({ seq: audit.seq })
                .from(audit)
                .where(and(eq(audit.dealId, schema.deals.id), eq(audit.action, filter.unlessAudited))),
            )
          : undefined,
        filter.where,
      ),
    );
}
