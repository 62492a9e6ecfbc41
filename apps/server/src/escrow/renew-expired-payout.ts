import { schema } from '@covenant/db';
import type { SettlementPlan } from '@covenant/escrow';
import { and, eq, inArray } from 'drizzle-orm';
import { eligibleSigners } from './approve-payout.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { type PayoutRow, plannedDepositsOf } from './escrow-rows.js';
import { buildStoredPayout } from './payout-variants.js';
import { raiseStaffAlert } from './staff-alerts.js';

/**
 * A payout whose signed form expired before it was carried out (the adapter threw
 * `PayoutExpiredError`: on Solana the leg's durable nonce moved on) is built again from the same
 * plan, with a new lifetime, and goes back to collecting approvals: the parties' signatures over
 * the old form are dropped, as they can no longer be used. Nothing left the leg, so the plan stands.
 * When the chain builds the very same payout again, renewing cannot help: staff are alerted.
 */
export async function renewExpiredPayout(
  deps: EscrowEngineDeps,
  payout: PayoutRow,
  reason: string,
): Promise<boolean> {
  const chain = deps.chains.get(payout.chain);
  if (!chain) return false;
  const [leg] = await deps.db
    .select()
    .from(schema.escrowLegs)
    .where(and(eq(schema.escrowLegs.escrowId, payout.escrowId), eq(schema.escrowLegs.leg, payout.leg)));
  if (!leg) return false;
  const unsigned = await buildStoredPayout(
    chain,
    leg,
    storedPlanOf(payout),
    plannedDepositsOf(payout),
    eligibleSigners(payout, payout.leg),
  );
  if (unsigned.payoutRef === payout.payoutRef) {
    await raiseStaffAlert(deps, {
      kind: 'payout_refused',
      subject: payout.id,
      message: 'The chain refuses a payout the parties approved',
      details: {
        escrow_id: payout.escrowId,
        leg: payout.leg,
        kind: payout.kind,
        error: reason.slice(0, 500),
      },
    });
    return false;
  }
  const now = deps.now();
  const renewed = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(schema.escrowPayouts)
      .set({
        payoutRef: unsigned.payoutRef,
        signingPayload: unsigned.signingPayload,
        status: 'collecting',
        rawTransaction: null,
        txRef: null,
        updatedAt: now,
      })
      .where(
        and(
          eq(schema.escrowPayouts.id, payout.id),
          inArray(schema.escrowPayouts.status, ['ready', 'submitting']),
        ),
      )
      .returning({ id: schema.escrowPayouts.id });
    if (rows.length === 0) return false;
    await tx
      .delete(schema.escrowPayoutSignatures)
      .where(eq(schema.escrowPayoutSignatures.payoutId, payout.id));
    return true;
  });
  if (renewed) {
    deps.logger.info(
      { payoutId: payout.id, escrowId: payout.escrowId, leg: payout.leg, reason },
      'the signed payout expired before it was sent: built again, awaiting approval again',
    );
  }
  return renewed;
}

/** The plan stored with a payout, as the adapter builds from it. */
function storedPlanOf(payout: PayoutRow): SettlementPlan {
  const plan = payout.plan as {
    outcome: SettlementPlan['outcome'];
    transfers: { kind: 'payout' | 'fee' | 'refund'; to: string; amount: string }[];
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
  };
}
