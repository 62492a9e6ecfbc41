import { schema } from '@covenant/db';
import type { SignedTransaction } from '@covenant/escrow';
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { cancelDealBySystem } from './cancel-deal-by-system.js';
import { remindFunding } from './deadline-reminders.js';
import type { EscrowChain } from './escrow-chains.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { escrowsWithLegDue, setLegState } from './escrow-rows.js';
import { expireSettlements, remindSettlements } from './expire-settlements.js';
import { raiseStaffAlert } from './staff-alerts.js';

/**
 * The funding deadline: a deal whose escrow is not funded by then is cancelled by the system
 * (`expire_funding`), and its deposits are then refunded (preparePayouts writes the refunds; the
 * depositor may approve one at once). On a chain with an on-chain deadline refund (Ethereum), a
 * refund nobody approved is sent without signatures once the escrow's deadline (the funding
 * deadline plus the settlement window) has passed — the contract lets anyone trigger it then. A leg
 * without one (`refund_after` null, Bitcoin) has no such refund: its refund waits for the
 * depositor's approval. A funded deal that has not started to settle by the time its on-chain
 * deadline is near is cancelled the same way (`expireSettlements`), and its deposits refunded; its
 * parties are reminded some hours before (`remindSettlements`), as they are before the funding
 * deadline while a leg is not funded (`remindFunding`).
 */
export async function enforceDeadlines(deps: EscrowEngineDeps): Promise<string[]> {
  const now = deps.now();
  const touched: string[] = [];
  await remindFunding(deps);
  const expired = await escrowsWithLegDue(deps.db, {
    escrowStatus: 'awaiting_funding',
    dealStatus: 'terms_agreed',
    due: 'deadline',
    before: now,
  });
  // Deals whose escrow was never opened pass the same deadline.
  const neverOpened = await deps.db
    .select({ dealId: schema.deals.id })
    .from(schema.deals)
    .leftJoin(schema.escrows, eq(schema.escrows.dealId, schema.deals.id))
    .where(
      and(
        eq(schema.deals.status, 'terms_agreed'),
        isNull(schema.escrows.id),
        sql`${schema.deals.termsAgreedAt} + make_interval(hours => ${schema.deals.fundingDeadlineHours}) < ${now.toISOString()}::timestamptz`,
      ),
    );
  const due = [...expired, ...neverOpened.map(({ dealId }) => ({ escrowId: null, dealId }))];
  for (const target of due) {
    await cancelDealBySystem(deps, target, {
      from: 'terms_agreed',
      action: 'expire_funding',
      event: 'funding_deadline_passed',
    });
    if (target.escrowId) touched.push(target.escrowId);
  }
  await remindSettlements(deps);
  touched.push(...(await expireSettlements(deps)));

  const unapprovedRefunds = await deps.db
    .select({ payout: schema.escrowPayouts, leg: schema.escrowLegs })
    .from(schema.escrowPayouts)
    .innerJoin(
      schema.escrowLegs,
      and(
        eq(schema.escrowLegs.escrowId, schema.escrowPayouts.escrowId),
        eq(schema.escrowLegs.leg, schema.escrowPayouts.leg),
      ),
    )
    .where(
      and(
        eq(schema.escrowPayouts.kind, 'refund'),
        inArray(schema.escrowPayouts.status, ['collecting']),
        lt(schema.escrowLegs.refundAfter, now),
      ),
    );
  for (const { payout, leg } of unapprovedRefunds) {
    const chain = deps.chains.get(payout.chain);
    // Only chains with an on-chain deadline refund (Ethereum) have one; elsewhere the refund waits for the depositor.
    if (!chain?.adapter.signRefundAfterDeadline) continue;
    if (await chain.relayerTurn(() => sendDeadlineRefund(deps, chain, payout, leg))) {
      touched.push(payout.escrowId);
    }
  }
  return touched;
}

/** Signs, stores and sends `refundAfterDeadline` for a leg's unapproved refund; false when the chain refuses it for now. */
async function sendDeadlineRefund(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  payout: typeof schema.escrowPayouts.$inferSelect,
  leg: typeof schema.escrowLegs.$inferSelect,
): Promise<boolean> {
  const now = deps.now();
  const signRefund = chain.adapter.signRefundAfterDeadline;
  if (!signRefund) return false;
  let signed: SignedTransaction;
  try {
    signed = await signRefund.call(chain.adapter, leg.depositAddress);
  } catch (error) {
    // The chain's clock may trail ours by a block; someone may have refunded it already; a lasting
    // refusal is for staff.
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes('DeadlineNotReached')) return false;
    if (await adoptDeadlineRefund(deps, chain, payout, leg)) return true;
    await raiseStaffAlert(deps, {
      kind: 'deadline_refund_refused',
      subject: payout.id,
      message: 'The chain refuses the refund after the deadline',
      details: { escrow_id: payout.escrowId, leg: payout.leg, error: message.slice(0, 500) },
    });
    return false;
  }
  const marked = await deps.db
    .update(schema.escrowPayouts)
    .set({
      status: 'submitting',
      rawTransaction: signed.rawTransaction,
      txRef: signed.txRef,
      submittedAt: now,
      updatedAt: now,
    })
    .where(and(eq(schema.escrowPayouts.id, payout.id), eq(schema.escrowPayouts.status, 'collecting')))
    .returning();
  if (marked.length === 0) return false;
  await setLegState(deps.db, payout.escrowId, payout.leg, 'refunding', now);
  try {
    await chain.adapter.broadcast(signed);
    await deps.db
      .update(schema.escrowPayouts)
      .set({ status: 'submitted', updatedAt: now })
      .where(eq(schema.escrowPayouts.id, payout.id));
  } catch (error) {
    deps.logger.warn(
      { err: error, payoutId: payout.id },
      'deadline refund broadcast failed; retried next pass',
    );
  }
  return true;
}

/**
 * A refund the chain refuses because the escrow was already refunded after its deadline by someone
 * else (anyone may call `refundAfterDeadline`: the depositor, say, while the platform was down): that
 * transaction is the refund. It becomes this payout's, sent; confirming it records what it moved
 * (`confirmPayouts`), and the escrow ends refunded as if the engine had sent it. False when the leg
 * is not settled on-chain, or not by such a refund.
 */
export async function adoptDeadlineRefund(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  payout: Pick<typeof schema.escrowPayouts.$inferSelect, 'id' | 'kind' | 'escrowId' | 'leg'>,
  leg: Pick<
    typeof schema.escrowLegs.$inferSelect,
    'depositAddress' | 'depositorRefundAddress' | 'receiverPayoutAddress' | 'refundAfter'
  >,
): Promise<boolean> {
  const find = chain.adapter.findDeadlineRefund;
  if (payout.kind !== 'refund' || !leg.refundAfter || !find) return false;
  if (!(await chain.adapter.isSettled(leg))) return false;
  const txRef = await find.call(chain.adapter, leg.depositAddress, leg.refundAfter);
  if (!txRef) return false;
  const now = deps.now();
  const adopted = await deps.db
    .update(schema.escrowPayouts)
    .set({ status: 'submitted', txRef, rawTransaction: null, submittedAt: now, updatedAt: now })
    .where(
      and(
        eq(schema.escrowPayouts.id, payout.id),
        inArray(schema.escrowPayouts.status, ['collecting', 'ready']),
      ),
    )
    .returning({ id: schema.escrowPayouts.id });
  if (adopted.length === 0) return false;
  await setLegState(deps.db, payout.escrowId, payout.leg, 'refunding', now);
  deps.logger.info(
    { payoutId: payout.id, escrowId: payout.escrowId, leg: payout.leg, txRef },
    'the leg was refunded after its deadline by another transaction: recorded as its refund',
  );
  return true;
}
