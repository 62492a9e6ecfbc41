import { schema } from '@covenant/db';
import type { PayoutExpiredError, PayoutExpiry, SettlementPlan } from '@covenant/escrow';
import { and, eq, inArray } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { committedPayout, eligibleSigners } from './approve-payout.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { depositOutputsOf, heldOf, loadEscrowBooks, type PayoutRow } from './escrow-rows.js';
import { buildStoredPayout, planJson } from './payout-variants.js';
import { raiseStaffAlert } from './staff-alerts.js';

/**
 * A payout whose signed form can no longer be carried out, while nothing has left the leg (the
 * adapter threw `PayoutExpiredError`: on Solana the leg's durable nonce moved on, or a deposit
 * arrived after the payout was built, which the payout, emptying and closing the account, must
 * include; on Bitcoin its fee rate fell below what the node relays) is built again (on Bitcoin at
 * the current rate) and goes back to collecting approvals: the signatures over the old form are
 * dropped, as they can no longer be used, and the deal's history tells both parties. Its transfers stay as decided, and whatever the leg
 * still holds beyond them goes back to the depositor, as in every settlement plan. Building the very
 * same payout again cannot help: then staff are alerted, unless a deposit of the leg is still
 * confirming (the next pass builds it with that deposit counted).
 */
export async function renewExpiredPayout(
  deps: EscrowEngineDeps,
  payout: PayoutRow,
  expired: PayoutExpiredError,
): Promise<boolean> {
  return (await rebuildPayout(deps, payout, expired.message, expired.expiry)) === 'renewed';
}

/**
 * A payout whose transaction was mined and failed (Solana: a deposit landed between the signing
 * check and its execution, so closing the leg's account failed; nothing moved, and the leg's nonce
 * advanced): built again like an expired one, when the leg still holds what it pays. `waiting`: a
 * deposit of the leg is still confirming (the next pass builds it with it); `refused`: it cannot be
 * built again (staff alerted) and the payout fails.
 */
export function rebuildRevertedPayout(
  deps: EscrowEngineDeps,
  payout: PayoutRow,
): Promise<'renewed' | 'waiting' | 'refused'> {
  return rebuildPayout(deps, payout, 'reverted on-chain', 'reverted');
}

/**
 * Builds the payout again and drops its approvals; the deal's history tells both parties why and that
 * it awaits their approval again (`escrow_payout_rebuilt`), or they would find the approval they gave
 * asked for again with no word.
 */
async function rebuildPayout(
  deps: EscrowEngineDeps,
  payout: PayoutRow,
  reason: string,
  why: PayoutExpiry | 'reverted',
): Promise<'renewed' | 'waiting' | 'refused'> {
  const reverted = why === 'reverted';
  const chain = deps.chains.get(payout.chain);
  if (!chain) return 'refused';
  const books = await loadEscrowBooks(deps.db, payout.escrowId);
  const leg = books.legs.find((row) => row.leg === payout.leg);
  if (!leg) return 'refused';
  const ledger = books.ledger(payout.leg);
  const refuse = (why: string) =>
    raiseStaffAlert(deps, {
      kind: 'payout_refused',
      subject: payout.id,
      message: 'The chain refuses a payout the parties approved',
      details: {
        escrow_id: payout.escrowId,
        leg: payout.leg,
        kind: payout.kind,
        error: `${reason}; ${why}`.slice(0, 500),
      },
    }).then(() => 'refused' as const);
  // What the leg still holds, not all it ever received: travel paid, or a settlement before a late
  // deposit's return, has left it already.
  const plan = withExcessReturned(storedPlanOf(payout), heldOf(leg, ledger), leg.depositorRefundAddress);
  if (!plan) return refuse('the leg now holds less than the payout pays');
  let unsigned: Awaited<ReturnType<typeof buildStoredPayout>>;
  try {
    unsigned = await buildStoredPayout(
      chain,
      leg,
      plan,
      depositOutputsOf(leg, ledger),
      eligibleSigners(payout, payout.leg, await committedPayout(deps.db, payout)),
    );
  } catch (error) {
    return refuse(`it cannot be built again: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (unsigned.payoutRef === payout.payoutRef) {
    if (ledger.some((entry) => entry.kind === 'deposit' && entry.status === 'pending')) return 'waiting';
    return refuse('built again, it is the same payout');
  }
  const now = deps.now();
  const renewed = await deps.db.transaction(async (tx) => {
    // The deal first, as everywhere a payout changes with its deal: its history takes the event.
    const [deal] = await tx
      .select({ id: schema.deals.id })
      .from(schema.deals)
      .innerJoin(schema.escrows, eq(schema.escrows.dealId, schema.deals.id))
      .where(eq(schema.escrows.id, payout.escrowId))
      .for('update', { of: schema.deals });
    if (!deal) return false;
    const rows = await tx
      .update(schema.escrowPayouts)
      .set({
        payoutRef: unsigned.payoutRef,
        signingPayload: unsigned.signingPayload,
        plan: planJson(plan, depositOutputsOf(leg, ledger)),
        status: 'collecting',
        rawTransaction: null,
        txRef: null,
        updatedAt: now,
      })
      .where(
        and(
          eq(schema.escrowPayouts.id, payout.id),
          inArray(schema.escrowPayouts.status, reverted ? ['submitted'] : ['ready', 'submitting']),
        ),
      )
      .returning({ id: schema.escrowPayouts.id });
    if (rows.length === 0) return false;
    await tx
      .delete(schema.escrowPayoutSignatures)
      .where(eq(schema.escrowPayoutSignatures.payoutId, payout.id));
    await appendDealEvent(tx, {
      dealId: deal.id,
      actorId: null,
      action: 'escrow_payout_rebuilt',
      payload: { escrow_id: payout.escrowId, leg: payout.leg, kind: payout.kind, reason: why },
      createdAt: now,
    });
    return true;
  });
  if (renewed) {
    deps.logger.info(
      { payoutId: payout.id, escrowId: payout.escrowId, leg: payout.leg, reason },
      'the signed payout can no longer be carried out: built again, awaiting approval again',
    );
  }
  return renewed ? 'renewed' : 'waiting';
}

/**
 * The plan with what the leg holds beyond its transfers added to the depositor's refund (a
 * refund transfer is added when there was none); null when the leg holds less than it pays.
 */
export function withExcessReturned(
  plan: SettlementPlan,
  held: bigint,
  depositorRefundAddress: string,
): SettlementPlan | null {
  const paid = plan.transfers.reduce((sum, transfer) => sum + transfer.amount, 0n);
  if (held < paid) return null;
  if (held === paid) return plan;
  const excess = held - paid;
  const refund = plan.transfers.findIndex(
    (transfer) => transfer.kind === 'refund' && transfer.to === depositorRefundAddress,
  );
  const transfers =
    refund === -1
      ? [...plan.transfers, { kind: 'refund' as const, to: depositorRefundAddress, amount: excess }]
      : plan.transfers.map((transfer, index) =>
          index === refund ? { ...transfer, amount: transfer.amount + excess } : transfer,
        );
  return { ...plan, transfers };
}

/** The plan stored with a payout, as the adapter builds from it. */
function storedPlanOf(payout: PayoutRow): SettlementPlan {
  const plan = payout.plan as {
    outcome: SettlementPlan['outcome'];
    transfers: { kind: SettlementPlan['transfers'][number]['kind']; to: string; amount: string }[];
    travel_charge?: string;
  };
  return {
    escrowId: payout.escrowId,
    leg: payout.leg,
    outcome: plan.outcome,
    transfers: plan.transfers.map((transfer) => ({
      kind: transfer.kind,
      to: transfer.to,
      amount: BigInt(transfer.amount),
    })),
    travelCharge: BigInt(plan.travel_charge ?? '0'),
  };
}
