import { schema } from '@covenant/db';
import { and, eq, inArray, ne, notExists, sql } from 'drizzle-orm';
import { sentPayoutStatuses } from './approve-payout.js';
import { cancelDealBySystem } from './cancel-deal-by-system.js';
import { deadlineReminderMs, remindOnce, type Tx } from './deadline-reminders.js';
import { escrowDecideBy } from './escrow-decide-by.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { escrowsWithLegDue } from './escrow-rows.js';
import { settlementSafetyMarginMs } from './legs-still-locked.js';

/** Funded escrows of funded deals, by their legs' on-chain deadlines. */
const fundedClosing = { escrowStatus: 'funded', dealStatus: 'escrow_funded', due: 'refundAfter' } as const;

/**
 * The same rule as `settlementUnderWay`, for the work lists: escrows whose settlement has started
 * are not picked (the check under the deal's lock stays the one that decides).
 */
const notSettling = notExists(
  sql`(select 1 from ${schema.escrowPayouts} where ${schema.escrowPayouts.escrowId} = ${schema.escrows.id} and ${schema.escrowPayouts.source} <> 'late_deposit' and ((${schema.escrowPayouts.source} = 'travel' and ${schema.escrowPayouts.status} in ('ready', 'submitting', 'submitted')) or (${schema.escrowPayouts.source} <> 'travel' and ${schema.escrowPayouts.status} in ('submitting', 'submitted', 'confirmed'))))`,
);

/**
 * Whether the escrow's settlement has started, so the window no longer applies: a payout of a leg
 * on its way or out (the rest follows, ADR 011), or travel approved or on its way (waited for; paid
 * travel stays paid). Settlement payouts approved by both (`ready`) but not sent have not started:
 * the margin holds them.
 */
async function settlementUnderWay(tx: Tx, escrowId: string): Promise<boolean> {
  const live = await tx
    .select({ source: schema.escrowPayouts.source, status: schema.escrowPayouts.status })
    .from(schema.escrowPayouts)
    .where(
      and(
        eq(schema.escrowPayouts.escrowId, escrowId),
        ne(schema.escrowPayouts.source, 'late_deposit'),
        inArray(schema.escrowPayouts.status, ['ready', ...sentPayoutStatuses]),
      ),
    );
  return live.some((row) =>
    row.source === 'travel'
      ? row.status !== 'confirmed'
      : (sentPayoutStatuses as readonly string[]).includes(row.status),
  );
}

/**
 * Tells both parties, once per deal, when its settlement window closes within
 * `deadlineReminderMs` and the settlement has not started (`settlement_window_closing` in the
 * audit trail, a notification and e-mail with the time).
 */
export async function remindSettlements(deps: EscrowEngineDeps): Promise<void> {
  const now = deps.now();
  const due = await escrowsWithLegDue(deps.db, {
    ...fundedClosing,
    before: new Date(now.getTime() + settlementSafetyMarginMs + deadlineReminderMs),
    unlessAudited: 'settlement_window_closing',
    where: notSettling,
  });
  for (const target of due) {
    await remindOnce(deps, target, 'settlement_window_closing', 'escrow_funded', async (tx) => {
      if (await settlementUnderWay(tx, target.escrowId)) return null;
      const settleBy = await escrowDecideBy(tx, target.escrowId);
      return settleBy && settleBy > now ? { settle_by: settleBy.toISOString() } : null;
    });
  }
}

/**
 * The settlement window: a funded deal that has not started to settle when one of its legs comes
 * within `settlementSafetyMarginMs` of its on-chain deadline (`refund_after`, Ethereum) is cancelled
 * by the system (`expire_settlement`), and both deposits are then refunded like any cancelled deal's
 * (preparePayouts writes the refunds; on Ethereum, one nobody approved goes out unsigned once the
 * deadline has passed). Past that point the legs can no longer be paid against each other
 * (`legsStillLocked` holds such payouts): without this the money would wait in escrow for staff.
 * Approvals already given for the release, not yet sent, are superseded. A deal whose settlement is
 * already on its way (a payout submitted), or that is in dispute, is left alone; so is one with
 * travel still on its way out of a leg, until it is mined. Returns the escrows it cancelled.
 */
export async function expireSettlements(deps: EscrowEngineDeps): Promise<string[]> {
  const now = deps.now();
  const due = await escrowsWithLegDue(deps.db, {
    ...fundedClosing,
    before: new Date(now.getTime() + settlementSafetyMarginMs),
    where: notSettling,
  });
  const expired: string[] = [];
  for (const target of due) {
    const { escrowId } = target;
    const done = await cancelDealBySystem(deps, target, {
      from: 'escrow_funded',
      action: 'expire_settlement',
      event: 'settlement_window_passed',
      unless: (tx) => settlementUnderWay(tx, escrowId),
      // The release approvals given but not sent: the refunds replace them.
      alsoEnd: async (tx) => {
        await tx
          .update(schema.escrowPayouts)
          .set({ status: 'superseded', updatedAt: now })
          .where(
            and(
              eq(schema.escrowPayouts.escrowId, escrowId),
              ne(schema.escrowPayouts.source, 'late_deposit'),
              inArray(schema.escrowPayouts.status, ['collecting', 'ready']),
            ),
          );
      },
    });
    if (done) expired.push(escrowId);
  }
  return expired;
}
