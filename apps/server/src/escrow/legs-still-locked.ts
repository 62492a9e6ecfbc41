import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { raiseStaffAlert } from './staff-alerts.js';

/**
 * How long before a leg's on-chain deadline (`refund_after`) the engine stops starting payouts that
 * pay the parties against each other: the other leg's transaction must be mined before its depositor
 * may take it back, and fee bumps may be needed to get it there.
 */
export const settlementSafetyMarginMs = 60 * 60_000;

/**
 * Whether every leg of the escrow is still held for the deal, so that a payout paying one party from
 * one leg can start while the other leg is sure to pay the other party. On Ethereum anyone may send
 * an unsettled escrow back to its depositor once its deadline has passed (`refundAfterDeadline`):
 * a buyer who took back their stablecoin that way, and then approved its release (a signature the
 * chain will refuse), must not receive the seller's asset. So before the first leg of a settlement
 * or of a mediator's release or split goes, each leg with such a deadline must be more than the
 * margin away from it and unsettled on-chain. When one is not, nothing is sent and staff are alerted
 * (once per escrow): what is left can only be refunded, and that is theirs to lead.
 */
export async function legsStillLocked(deps: EscrowEngineDeps, escrowId: string): Promise<boolean> {
  const now = deps.now().getTime();
  const legs = await deps.db.select().from(schema.escrowLegs).where(eq(schema.escrowLegs.escrowId, escrowId));
  for (const leg of legs) {
    if (!leg.refundAfter) continue;
    if (now >= leg.refundAfter.getTime() - settlementSafetyMarginMs) {
      await raiseStaffAlert(deps, {
        kind: 'settlement_window_closed',
        subject: escrowId,
        message:
          "The escrow's on-chain deadline is too near to pay its legs against each other; its payouts are held",
        details: { escrow_id: escrowId, leg: leg.leg, refund_after: leg.refundAfter.toISOString() },
      });
      return false;
    }
    const chain = deps.chains.get(leg.chain);
    if (!chain) return false;
    if (await chain.adapter.isSettled(leg)) {
      await raiseStaffAlert(deps, {
        kind: 'leg_settled_elsewhere',
        subject: escrowId,
        message:
          'A leg was settled on-chain by a transaction the engine did not send; the payouts of the other legs are held',
        details: { escrow_id: escrowId, leg: leg.leg, deposit_address: leg.depositAddress },
      });
      return false;
    }
  }
  return true;
}
