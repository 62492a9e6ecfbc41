import { schema } from '@covenant/db';
import { isConfirmed, lateDepositAction } from '@covenant/escrow';
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { EscrowChain } from './escrow-chains.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { type LedgerRow, type LegRow, ledgerEntryOf, loadEscrowBooks } from './escrow-rows.js';
import { writePayout } from './prepare-payouts.js';
import { sendRelayerTransaction } from './relayer-transactions.js';
import { raiseStaffAlert, resolveStaffAlert } from './staff-alerts.js';

/**
 * Sends back what reached a leg after it was settled (a deposit paid late, or twice), by the rule
 * of `lateDepositAction`: on a chain with a sweep (Ethereum) the escrow's `sweep()` pays its whole
 * balance to the depositor's refund address (stored, sent, and followed to its block by
 * `followRelayerTransactions`, which puts the movement into the leg's ledger so its books balance
 * again); elsewhere a `late_deposit` refund payout to that address is prepared, for
 * either party to approve, and goes the way of every payout. A leg of a closed escrow that had no
 * payout of its own (left empty when the other leg was refunded or paid, funded afterwards) returns
 * what it holds by such a payout too (see `lateDepositAction`). Runs for the escrows whose ledgers
 * just changed, and on full passes for those whose return was refused (`retryRefusedLateReturns`).
 */
export async function sweepLateDeposits(deps: EscrowEngineDeps, escrowIds: readonly string[]): Promise<void> {
  const unique = [...new Set(escrowIds)];
  if (unique.length === 0) return;
  // Only a released or refunded leg, or a leg of a closed escrow, returns late money: the escrows
  // with neither are done in one read.
  const candidates = await deps.db
    .selectDistinct({ escrowId: schema.escrows.id, status: schema.escrows.status })
    .from(schema.escrows)
    .innerJoin(schema.escrowLegs, eq(schema.escrowLegs.escrowId, schema.escrows.id))
    .where(
      and(
        inArray(schema.escrows.id, unique),
        or(
          inArray(schema.escrowLegs.state, ['released', 'refunded']),
          inArray(schema.escrows.status, ['settled', 'refunded']),
        ),
      ),
    );
  const eligible = new Set(candidates.map((row) => row.escrowId));
  const closed = new Set(
    candidates
      .filter((row) => row.status === 'settled' || row.status === 'refunded')
      .map((row) => row.escrowId),
  );
  const ids = unique.filter((escrowId) => eligible.has(escrowId));
  if (ids.length === 0) return;
  // A sweep sent and not mined yet: its movements are not in the ledger, the money still looks held.
  const sweepsOnTheirWay = new Set(
    (
      await deps.db
        .select({ subject: schema.escrowRelayerTransactions.subject })
        .from(schema.escrowRelayerTransactions)
        .where(
          and(
            eq(schema.escrowRelayerTransactions.kind, 'sweep'),
            inArray(schema.escrowRelayerTransactions.escrowId, ids),
            inArray(schema.escrowRelayerTransactions.status, ['submitting', 'submitted']),
          ),
        )
    ).map((sweep) => sweep.subject),
  );
  for (const escrowId of ids) {
    const books = await loadEscrowBooks(deps.db, escrowId);
    for (const row of books.legs) {
      // In a closed escrow every own payout is confirmed (it closes only then): a leg without one was never paid.
      const closedWithoutPayout = closed.has(escrowId) && books.payout(row.leg) === null;
      if (row.state !== 'released' && row.state !== 'refunded' && !closedWithoutPayout) continue;
      const chain = deps.chains.get(row.chain);
      if (!chain) continue;
      const rows = books.ledger(row.leg);
      const ledger = rows.map(ledgerEntryOf);
      const counted = ledger.filter((entry) => isConfirmed(entry, row.requiredConfirmations));
      const total = (kinds: string[]) =>
        counted.filter((entry) => kinds.includes(entry.kind)).reduce((sum, entry) => sum + entry.amount, 0n);
      const returnInFlight =
        ledger.some((entry) => entry.kind === 'sweep' && entry.status === 'pending') ||
        sweepsOnTheirWay.has(`${escrowId}:${row.leg}`) ||
        books.lateDepositPayouts(row.leg).some((payout) => !['confirmed', 'failed'].includes(payout.status));
      const action = lateDepositAction({
        state: row.state,
        held: total(['deposit']) - total(['travel', 'payout', 'fee', 'refund', 'sweep', 'network_fee']),
        canSweep: chain.adapter.signSweep !== undefined && (chain.adapter.sweeps?.(row) ?? true),
        returnInFlight,
        closedWithoutPayout,
      });
      const subject = `${escrowId}:${row.leg}`;
      if (action.kind === 'payout') {
        await prepareLateDepositPayout(deps, chain, row, rows, action.amount).then(
          () => resolveStaffAlert(deps, { kind: 'late_deposit_payout_refused', subject }),
          (error: unknown) =>
            raiseStaffAlert(deps, {
              kind: 'late_deposit_payout_refused',
              subject: `${escrowId}:${row.leg}`,
              message: 'The return of a late deposit to the depositor could not be prepared',
              details: {
                escrow_id: escrowId,
                leg: row.leg,
                held: action.amount.toString(),
                error: String(error).slice(0, 500),
              },
            }),
        );
        continue;
      }
      if (action.kind !== 'sweep') continue;
      const held = action.amount;
      const signSweep = chain.adapter.signSweep;
      if (!signSweep) continue;
      try {
        await sendRelayerTransaction(
          deps,
          chain,
          {
            kind: 'sweep',
            subject,
            escrowId,
            leg: row.leg,
            depositAddress: row.depositAddress,
          },
          async () =>
            signSweep.call(chain.adapter, row.depositAddress, {
              dealId: await dealIdOf(deps, escrowId),
              leg: row.leg,
              depositorRefundAddress: row.depositorRefundAddress,
            }),
        );
        await resolveStaffAlert(deps, { kind: 'sweep_refused', subject });
      } catch (error) {
        await raiseStaffAlert(deps, {
          kind: 'sweep_refused',
          subject: `${escrowId}:${row.leg}`,
          message: 'A late deposit could not be swept back to the depositor',
          details: {
            escrow_id: escrowId,
            leg: row.leg,
            held: held.toString(),
            error: String(error).slice(0, 500),
          },
        });
      }
    }
  }
}

async function dealIdOf(deps: EscrowEngineDeps, escrowId: string): Promise<string> {
  const [escrow] = await deps.db
    .select({ dealId: schema.escrows.dealId })
    .from(schema.escrows)
    .where(eq(schema.escrows.id, escrowId));
  if (!escrow) throw new Error(`escrow ${escrowId} not found`);
  return escrow.dealId;
}

/**
 * The return of a late deposit on a chain without a sweep: a refund payout of what the leg holds
 * to the depositor's refund address. It spends the deposit outputs no earlier payout of the leg
 * spent (the adapter's payout records the ones it spends in its plan).
 */
async function prepareLateDepositPayout(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  row: LegRow,
  ledger: readonly LedgerRow[],
  held: bigint,
): Promise<void> {
  const spent = await spentDepositOutputs(deps, row);
  const unspent = ledger.filter(
    (entry) => entry.kind !== 'deposit' || !spent.has(`${entry.txRef}:${entry.position}`),
  );
  const spec = {
    row,
    ledger: unspent,
    received: held,
    outcome: { kind: 'refund' },
    source: 'late_deposit',
    instructionId: null,
  } as const;
  if (await writePayout(deps, spec)) {
    deps.logger.info(
      { escrowId: row.escrowId, leg: row.leg, chain: chain.info.chain, amount: held.toString() },
      'a late deposit is to be returned to the depositor: a payout awaits approval',
    );
  }
}

/** The deposit outputs the leg's live payouts spend, as `txRef:position`. */
async function spentDepositOutputs(deps: EscrowEngineDeps, row: LegRow): Promise<Set<string>> {
  const payouts = await deps.db
    .select({ plan: schema.escrowPayouts.plan, status: schema.escrowPayouts.status })
    .from(schema.escrowPayouts)
    .where(and(eq(schema.escrowPayouts.escrowId, row.escrowId), eq(schema.escrowPayouts.leg, row.leg)));
  const spent = new Set<string>();
  for (const payout of payouts) {
    if (payout.status === 'superseded' || payout.status === 'failed') continue;
    const deposits = (payout.plan as { deposits?: { txRef: string; position: number }[] }).deposits ?? [];
    for (const deposit of deposits) spent.add(`${deposit.txRef}:${deposit.position}`);
  }
  return spent;
}

/** Alerts of a late deposit's return that could not be prepared or sent: tried again each full pass. */
const refusedReturnAlerts = ['late_deposit_payout_refused', 'sweep_refused'];

/**
 * The escrows whose late deposit's return was refused (a Bitcoin network fee above what it holds, a
 * node that did not answer, a token that froze the balance): the next full pass tries again, and
 * the alert is resolved once the return is prepared or sent. Without this, nothing would try again
 * until the leg's ledger changed.
 */
export async function retryRefusedLateReturns(deps: EscrowEngineDeps): Promise<void> {
  const alerts = await deps.db
    .select({ details: schema.staffAlerts.details })
    .from(schema.staffAlerts)
    .where(and(inArray(schema.staffAlerts.kind, refusedReturnAlerts), isNull(schema.staffAlerts.resolvedAt)));
  const escrowIds = alerts.flatMap(({ details }) =>
    typeof details.escrow_id === 'string' ? [details.escrow_id] : [],
  );
  await sweepLateDeposits(deps, escrowIds);
}
