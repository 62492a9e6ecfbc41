import { schema } from '@covenant/db';
import { type DealStatus, nextDealStatus } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { cancelOpenTravel } from '../travel/cancel-open-travel.js';
import type { Tx } from './deadline-reminders.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';

/** A deadline the system cancels a deal on: the status it must still be in, its transition and its audit event. */
export interface SystemCancellation {
  from: DealStatus;
  action: 'expire_funding' | 'expire_settlement';
  event: 'funding_deadline_passed' | 'settlement_window_passed';
  /** Read under the deal's lock: true leaves the deal as it is (e.g. its settlement is under way). */
  unless?: (tx: Tx) => Promise<boolean>;
  /** What the cancellation ends besides the deal's status and open travel, in the same transaction. */
  alsoEnd?: (tx: Tx) => Promise<void>;
}

/**
 * Cancels a deal for a passed deadline, in one transaction with the deal's row locked: unless it has
 * left `from` meanwhile (or `unless` holds), the system transition, what `alsoEnd` supersedes, the
 * audit event (which notifies both parties) and the cancellation of its open travel. The deposits
 * are refunded afterwards like any cancelled deal's (preparePayouts). Whether it was cancelled.
 */
export async function cancelDealBySystem(
  deps: EscrowEngineDeps,
  target: { dealId: string; escrowId: string | null },
  rule: SystemCancellation,
): Promise<boolean> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [deal] = await tx
      .select()
      .from(schema.deals)
      .where(eq(schema.deals.id, target.dealId))
      .for('update');
    if (deal?.status !== rule.from) return false;
    if (rule.unless && (await rule.unless(tx))) return false;
    const status = nextDealStatus(deal.status, rule.action, 'system');
    await tx.update(schema.deals).set({ status, updatedAt: now }).where(eq(schema.deals.id, target.dealId));
    await rule.alsoEnd?.(tx);
    await appendDealEvent(tx, {
      dealId: target.dealId,
      actorId: null,
      action: rule.event,
      payload: { escrow_id: target.escrowId, from_status: deal.status, to_status: status },
      createdAt: now,
    });
    await cancelOpenTravel(tx, { dealId: target.dealId, actorId: null, now });
    return true;
  });
}
