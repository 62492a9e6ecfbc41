import { schema } from '@covenant/db';
import type { CanonicalValue } from '@covenant/domain';
import { and, eq, sql } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { escrowsWithLegDue } from './escrow-rows.js';

/** How long before a deal's funding deadline or settlement window closes its parties are reminded, once. */
export const deadlineReminderMs = 6 * 3_600_000;

export type Tx = Parameters<Parameters<EscrowEngineDeps['db']['transaction']>[0]>[0];

/**
 * Appends `action` to the deal's audit trail (which notifies both parties and e-mails them) unless
 * it is there already, the deal has left `dealStatus`, or `payload` says there is nothing to remind
 * of (null); in one transaction with the deal locked, so replicas remind once.
 */
export async function remindOnce(
  deps: EscrowEngineDeps,
  target: { escrowId: string; dealId: string },
  action: string,
  dealStatus: (typeof schema.deals.$inferSelect)['status'],
  payload: (tx: Tx) => Promise<{ [key: string]: CanonicalValue } | null>,
): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const [deal] = await tx
      .select()
      .from(schema.deals)
      .where(eq(schema.deals.id, target.dealId))
      .for('update');
    if (deal?.status !== dealStatus) return;
    const audit = schema.dealAuditEntries;
    const [reminded] = await tx
      .select({ seq: audit.seq })
      .from(audit)
      .where(and(eq(audit.dealId, target.dealId), eq(audit.action, action)))
      .limit(1);
    if (reminded) return;
    const details = await payload(tx);
    if (!details) return;
    await appendDealEvent(tx, {
      dealId: target.dealId,
      actorId: null,
      action,
      payload: { escrow_id: target.escrowId, ...details },
      createdAt: now,
    });
  });
}

/**
 * Tells both parties, once per deal, when the escrow's funding deadline is within
 * `deadlineReminderMs` and a leg is not funded yet (`funding_deadline_closing`: the deadline and
 * the legs still to fund). Unfunded at the deadline, the deal is cancelled (`enforceDeadlines`).
 * A funding window shorter than twice that is reminded of at its midpoint instead, so a deal agreed
 * with a one-hour deadline is not told the deadline is near in the same minute its escrow opens.
 */
export async function remindFunding(deps: EscrowEngineDeps): Promise<void> {
  const now = deps.now();
  const due = await escrowsWithLegDue(deps.db, {
    escrowStatus: 'awaiting_funding',
    dealStatus: 'terms_agreed',
    due: 'deadline',
    before: new Date(now.getTime() + deadlineReminderMs),
    unlessAudited: 'funding_deadline_closing',
    // A short window's midpoint not reached yet: nothing to remind of this pass.
    where: sql`${schema.escrows.createdAt} + (${schema.escrowLegs.deadline} - ${schema.escrows.createdAt}) / 2 <= ${now.toISOString()}::timestamptz`,
  });
  for (const target of due) {
    await remindOnce(deps, target, 'funding_deadline_closing', 'terms_agreed', async (tx) => {
      const [escrow] = await tx
        .select({ openedAt: schema.escrows.createdAt })
        .from(schema.escrows)
        .where(eq(schema.escrows.id, target.escrowId));
      const legs = await tx
        .select({
          leg: schema.escrowLegs.leg,
          state: schema.escrowLegs.state,
          deadline: schema.escrowLegs.deadline,
        })
        .from(schema.escrowLegs)
        .where(eq(schema.escrowLegs.escrowId, target.escrowId));
      const unfunded = legs.filter(
        (row) => row.state === 'awaiting_deposit' || row.state === 'partially_funded',
      );
      const deadline = Math.min(...legs.map((row) => row.deadline.getTime()));
      if (unfunded.length === 0 || deadline <= now.getTime()) return null;
      if (escrow && now.getTime() < (escrow.openedAt.getTime() + deadline) / 2) return null;
      return {
        funding_deadline: new Date(deadline).toISOString(),
        unfunded: unfunded.map((row) => row.leg).sort(),
      };
    });
  }
}
