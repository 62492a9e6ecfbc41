import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import {
  choosePayoutInputs,
  type Leg,
  type MediatorInstruction,
  mediatorOutcome,
  planSettlement,
  type SettlementOutcome,
} from '@covenant/escrow';
import { and, eq, inArray } from 'drizzle-orm';
import { loadMeetingRecords, meetingSettled } from '../meetings/meeting-state.js';
import { eligibleSigners } from './approve-payout.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { shortLegs } from './escrow-funding.js';
import {
  depositOutputsOf,
  type LedgerRow,
  type LegRow,
  legOf,
  loadEscrowBooks,
  receivedOf,
} from './escrow-rows.js';
import { buildStoredPayout, planJson } from './payout-variants.js';
import { raiseStaffAlert, type StaffAlert } from './staff-alerts.js';
import { closeTravel, travelAccountOf, travelInFlight } from './travel-payouts.js';

type Source = 'settlement' | 'cancellation' | 'mediator' | 'late_deposit';
type TravelAccount = { paid: bigint; charged: bigint };

/**
 * Decides what each escrow must pay out now, and writes it down as a payout awaiting approval:
 * both legs released once the deal is funded; every confirmed deposit refunded once the deal is
 * cancelled; a mediator's queued decision carried out (replacing any payout not yet sent). Safe to
 * run any number of times: a leg has at most one live payout (a unique index), and each step checks
 * what exists first.
 */
export async function preparePayouts(deps: EscrowEngineDeps): Promise<string[]> {
  const touched: string[] = [];
  const candidates = await deps.db
    .select({
      escrowId: schema.escrows.id,
      escrowStatus: schema.escrows.status,
      dealId: schema.deals.id,
      dealStatus: schema.deals.status,
      meetingRequired: schema.deals.meetingRequired,
    })
    .from(schema.escrows)
    .innerJoin(schema.deals, eq(schema.deals.id, schema.escrows.dealId))
    .where(
      and(
        inArray(schema.escrows.status, ['funded', 'awaiting_funding', 'refunding']),
        inArray(schema.deals.status, ['escrow_funded', 'cancelled']),
      ),
    );
  for (const candidate of candidates) {
    const source: Source = candidate.dealStatus === 'escrow_funded' ? 'settlement' : 'cancellation';
    if (source === 'settlement' && candidate.escrowStatus !== 'funded') continue;
    // A deal whose terms require a meeting settles once both checked in there, or both waived it.
    if (
      source === 'settlement' &&
      candidate.meetingRequired &&
      !meetingSettled(await loadMeetingRecords(deps.db, candidate.dealId))
    ) {
      continue;
    }
    // One escrow whose payout cannot be built (its deposits do not cover it, the node fails) must
    // not hold back every other escrow's: staff are told, the next pass tries again.
    try {
      if (await preparePayoutsFor(deps, candidate.escrowId, source)) touched.push(candidate.escrowId);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      deps.logger.warn({ err: error, escrowId: candidate.escrowId, source }, 'a payout could not be built');
      await raiseStaffAlert(deps, {
        kind: 'payout_not_buildable',
        subject: `${candidate.escrowId}:${source}`,
        message: `A ${source === 'settlement' ? 'settlement' : 'refund'} payout of this escrow cannot be built: ${reason.slice(0, 300)}`,
        details: {
          escrow_id: candidate.escrowId,
          deal_id: candidate.dealId,
          source,
          error: reason.slice(0, 500),
        },
      });
    }
  }
  const instructions = await deps.db
    .select()
    .from(schema.escrowInstructions)
    .where(eq(schema.escrowInstructions.status, 'queued'));
  for (const instruction of instructions) {
    const escrowId = await executeInstruction(deps, instruction);
    if (escrowId) touched.push(escrowId);
  }
  return touched;
}

async function preparePayoutsFor(
  deps: EscrowEngineDeps,
  escrowId: string,
  source: 'settlement' | 'cancellation',
  instructionId: string | null = null,
): Promise<boolean> {
  const books = await loadEscrowBooks(deps.db, escrowId);
  // Travel on its way out of a leg is paid first: the settlement is built on what it leaves. A
  // cancelled deal sends no more travel: what was approved and not sent is superseded instead.
  const settling = source === 'settlement';
  const due = books.legs.filter(
    (row) => !books.payout(row.leg) && receivedOf(row, books.ledger(row.leg)) > 0n,
  );
  if (due.length === 0) return false;
  if (books.legs.some((row) => travelInFlight(books, row.leg, settling))) return false;
  if (!(await closeTravel(deps, escrowId, settling ? 'escrow_settling' : 'deal_cancelled'))) return false;
  let created = false;
  for (const row of due) {
    const ledger = books.ledger(row.leg);
    const received = receivedOf(row, ledger);
    const outcome: SettlementOutcome = source === 'settlement' ? { kind: 'release' } : { kind: 'refund' };
    const payout: PayoutSpec = {
      row,
      ledger,
      received,
      outcome,
      source,
      instructionId,
      travel: travelAccountOf(books, row),
    };
    created = (await writePayout(deps, payout)) || created;
  }
  if (created && source === 'cancellation') {
    await deps.db
      .update(schema.escrows)
      .set({ status: 'refunding', updatedAt: deps.now() })
      .where(eq(schema.escrows.id, escrowId));
  }
  return created;
}

/** What a leg's payout is built from: the leg, its ledger and what it received, and what to pay. */
export interface PayoutSpec {
  row: LegRow;
  ledger: readonly LedgerRow[];
  received: bigint;
  outcome: SettlementOutcome;
  source: Source;
  instructionId: string | null;
  travel?: TravelAccount;
}

/**
 * Writes the payout of `outcome` for a leg: the adapter builds it from the plan and, on a UTXO
 * chain, the leg's confirmed deposit outputs (which it spends, all of them). False when the leg
 * already has such a payout (the unique indexes of live payouts).
 */
export async function writePayout(deps: EscrowEngineDeps, spec: PayoutSpec): Promise<boolean> {
  const payout = await buildPayoutRow(deps, spec);
  if (!payout) return false;
  const inserted = await deps.db
    .insert(schema.escrowPayouts)
    .values(payout)
    .onConflictDoNothing()
    .returning({ id: schema.escrowPayouts.id });
  return inserted.length > 0;
}

/**
 * The row of the payout of `outcome` for a leg, built by the adapter and not yet written; null when
 * the leg's chain is not served here. Throws an AppError when the leg cannot pay the outcome.
 */
async function buildPayoutRow(
  deps: EscrowEngineDeps,
  { row, ledger, received, outcome, source, instructionId, travel }: PayoutSpec,
): Promise<typeof schema.escrowPayouts.$inferInsert | null> {
  const chain = deps.chains.get(row.chain);
  if (!chain) return null;
  // A chain that caps a payout's inputs spends the largest deposit outputs, as few as pay the outcome;
  // the rest goes back to the depositor as late deposits once this payout is confirmed.
  const all = depositOutputsOf(row, ledger);
  const max = chain.adapter.maxPayoutInputs;
  const needed = outcome.kind === 'refund' ? 0n : BigInt(row.requiredAmount);
  const deposits = max === undefined ? all : choosePayoutInputs(all, max, needed);
  const spendable = deposits === all ? received : deposits.reduce((sum, deposit) => sum + deposit.amount, 0n);
  const plan = planSettlement(legOf(row), spendable, outcome, chain.info.feeAddress, travel);
  const unsigned = await buildStoredPayout(chain, row, plan, deposits, eligibleSigners({ source }, row.leg));
  const now = deps.now();
  return {
    escrowId: row.escrowId,
    leg: row.leg,
    chain: row.chain,
    kind: outcome.kind,
    source,
    instructionId,
    payoutRef: unsigned.payoutRef,
    signingPayload: unsigned.signingPayload,
    plan: planJson(plan, deposits),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Carries out a mediator's decision on the deal's escrow: payouts not yet sent are superseded and
 * each leg holding money gets the decided payout. All or nothing: every leg's payout is built first
 * and they are written together, with the instruction's new status, in one transaction, so a decision
 * one leg cannot follow never leaves the other leg's payout live for a party to approve (mediator
 * payouts need either party's approval, so the one who gains would). A release or split needs every
 * leg fully funded (decisions refuse them otherwise; this also holds for ones queued before that). A
 * decision the escrow cannot pay, or one that comes after a leg was already paid out, fails the
 * instruction and alerts staff.
 */
async function executeInstruction(
  deps: EscrowEngineDeps,
  instruction: typeof schema.escrowInstructions.$inferSelect,
): Promise<string | null> {
  const [escrow] = await deps.db
    .select()
    .from(schema.escrows)
    .where(eq(schema.escrows.dealId, instruction.dealId));
  const now = deps.now();
  const fail = async (alert: Omit<StaffAlert, 'subject'>) => {
    await raiseStaffAlert(deps, { ...alert, subject: instruction.id });
    await deps.db
      .update(schema.escrowInstructions)
      .set({ status: 'failed', updatedAt: now })
      .where(eq(schema.escrowInstructions.id, instruction.id));
    return null;
  };
  if (!escrow) {
    // Disputed before any escrow was opened: nothing was deposited, so there is nothing to move. Such
    // decisions now cancel the deal without an instruction; this finishes ones queued before that.
    await deps.db
      .update(schema.escrowInstructions)
      .set({ status: 'executed', updatedAt: now })
      .where(eq(schema.escrowInstructions.id, instruction.id));
    return null;
  }
  const payload = instruction.payload as unknown as MediatorInstruction;
  const books = await loadEscrowBooks(deps.db, escrow.id);
  // Travel already on its way out is waited for: the decision is carried out on what it leaves. Travel
  // approved and not sent never goes now (the deal is decided): it is superseded below.
  if (books.legs.some((row) => travelInFlight(books, row.leg, false))) return null;
  const sent = books.legs.filter((row) => {
    const payout = books.payout(row.leg);
    return payout && !['collecting', 'ready'].includes(payout.status);
  });
  if (sent.length > 0) {
    return fail({
      kind: 'instruction_after_payout',
      message: 'A mediator decision came after a leg was already paid out',
      details: { deal_id: instruction.dealId, legs: sent.map((row) => row.leg) },
    });
  }
  // Payouts not sent yet give way to the decision; travel already paid stays paid, travel approved and
  // not sent is superseded with its item (`closeTravel`).
  await closeTravel(deps, escrow.id, 'dispute_decided');
  await deps.db
    .update(schema.escrowPayouts)
    .set({ status: 'superseded', updatedAt: now })
    .where(
      and(
        eq(schema.escrowPayouts.escrowId, escrow.id),
        inArray(schema.escrowPayouts.status, ['collecting', 'ready']),
      ),
    );
  // Every leg's payout is built (the adapters may ask their nodes) before anything is written, then
  // all are written at once: a leg that cannot follow the decision leaves no other leg's payout live.
  try {
    if (payload.decision !== 'refund') {
      const short = shortLegs(books.legs, books.ledger, {
        asset: payload.legs.asset.amount,
        stable: payload.legs.stable.amount,
      });
      if (short.length > 0) {
        throw new AppError(
          'INSUFFICIENT_BALANCE',
          'The escrow is not fully funded: only a refund can be paid',
          {
            short_legs: short,
          },
        );
      }
    }
    const payouts: (typeof schema.escrowPayouts.$inferInsert)[] = [];
    for (const row of books.legs) {
      const ledger = books.ledger(row.leg);
      const received = receivedOf(row, ledger);
      if (received === 0n) continue;
      const payout = await buildPayoutRow(deps, {
        row,
        ledger,
        received,
        outcome: mediatorOutcome(payload, row.leg as Leg),
        source: 'mediator',
        instructionId: instruction.id,
        travel: travelAccountOf(books, row),
      });
      if (payout) payouts.push(payout);
    }
    await deps.db.transaction(async (tx) => {
      const inserted =
        payouts.length === 0
          ? []
          : await tx
              .insert(schema.escrowPayouts)
              .values(payouts)
              .onConflictDoNothing()
              .returning({ leg: schema.escrowPayouts.leg });
      // A leg that gained a live payout since it was read (the unique index of live payouts) rolls the
      // others back with it.
      if (inserted.length !== payouts.length) {
        throw new AppError('CONFLICT', 'A leg already has a live payout', {
          legs: payouts.map((payout) => payout.leg).filter((leg) => !inserted.some((row) => row.leg === leg)),
        });
      }
      await tx
        .update(schema.escrows)
        .set({ status: 'settling', updatedAt: now })
        .where(eq(schema.escrows.id, escrow.id));
      await tx
        .update(schema.escrowInstructions)
        .set({ status: 'executing', updatedAt: now })
        .where(eq(schema.escrowInstructions.id, instruction.id));
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return fail({
      kind: 'instruction_not_payable',
      message: `A mediator decision cannot be paid out: ${error.message}`,
      details: { deal_id: instruction.dealId, error: error.code, ...((error.details as object) ?? {}) },
    });
  }
  return escrow.id;
}
