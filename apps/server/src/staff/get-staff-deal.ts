import { type Db, schema } from '@covenant/db';
import { AppError, type StaffDealView } from '@covenant/domain';
import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import { presentDeal, selectDealViews } from '../deals/deal-view.js';
import { getDealAuditForStaff } from '../deals/get-deal-audit.js';
import { recordStaffRead } from './record-staff-read.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * One deal as compliance staff and mediators see it: terms, parties (with e-mail addresses), their
 * addresses, the escrow's legs with every on-chain movement, the payouts, the audit trail verified
 * afresh and the staff alerts about it. The read is recorded in the audit trail first, so the trail
 * shown ends with it. NOT_FOUND for no such deal (nothing is recorded then).
 */
export async function getStaffDeal(
  deps: { db: Db; now: () => Date },
  staffId: string,
  dealId: string,
): Promise<StaffDealView> {
  const { db } = deps;
  const [row] = await selectDealViews(db, eq(schema.deals.id, dealId));
  if (!row) throw new AppError('NOT_FOUND', 'Deal not found');
  await recordStaffRead(db, { staffId, dealIds: [dealId], via: 'deal_view', now: deps.now() });

  const [people, addresses, [escrow], audit] = await Promise.all([
    db
      .select({ id: schema.users.id, email: schema.users.email, username: schema.profiles.username })
      .from(schema.users)
      .leftJoin(schema.profiles, eq(schema.profiles.id, schema.users.id))
      .where(inArray(schema.users.id, [row.deal.buyerId, row.deal.sellerId])),
    db.select().from(schema.dealAddresses).where(eq(schema.dealAddresses.dealId, dealId)),
    db.select().from(schema.escrows).where(eq(schema.escrows.dealId, dealId)),
    getDealAuditForStaff(db, dealId),
  ]);
  const person = (id: string) => {
    const found = people.find((entry) => entry.id === id);
    return { id, email: found?.email ?? '', username: found?.username ?? null };
  };
  const [legs, movements, payouts] = escrow
    ? await Promise.all([
        db
          .select()
          .from(schema.escrowLegs)
          .where(eq(schema.escrowLegs.escrowId, escrow.id))
          .orderBy(asc(schema.escrowLegs.leg)),
        db
          .select()
          .from(schema.escrowLedgerEntries)
          .where(eq(schema.escrowLedgerEntries.escrowId, escrow.id))
          .orderBy(asc(schema.escrowLedgerEntries.createdAt), asc(schema.escrowLedgerEntries.position)),
        db
          .select()
          .from(schema.escrowPayouts)
          .where(eq(schema.escrowPayouts.escrowId, escrow.id))
          .orderBy(asc(schema.escrowPayouts.createdAt)),
      ])
    : [[], [], []];
  const alerts = await db
    .select({ alert: schema.staffAlerts, resolvedBy: schema.users.email })
    .from(schema.staffAlerts)
    .leftJoin(schema.users, eq(schema.users.id, schema.staffAlerts.resolvedBy))
    .where(
      or(
        sql`${schema.staffAlerts.details}->>'deal_id' = ${dealId}`,
        ...(escrow ? [sql`${schema.staffAlerts.details}->>'escrow_id' = ${escrow.id}`] : []),
      ),
    )
    .orderBy(asc(schema.staffAlerts.createdAt));

  // Seen from neither side: the schema leaves out the counterparty presentDeal works out for a party.
  const { counterparty_id: _, ...deal } = presentDeal(row, row.deal.buyerId);
  return {
    deal,
    parties: { buyer: person(row.deal.buyerId), seller: person(row.deal.sellerId) },
    addresses: addresses.map((entry) => ({
      party: entry.party,
      payout_address: entry.payoutAddress,
      refund_address: entry.refundAddress,
    })),
    escrow: escrow
      ? {
          id: escrow.id,
          status: escrow.status,
          legs: legs.map((leg) => ({
            leg: leg.leg,
            chain: leg.chain,
            symbol: leg.symbol,
            token_address: leg.tokenAddress,
            required_amount: leg.requiredAmount,
            deposit_address: leg.depositAddress,
            depositor_refund_address: leg.depositorRefundAddress,
            receiver_payout_address: leg.receiverPayoutAddress,
            state: leg.state,
            deadline: leg.deadline.toISOString(),
            movements: movements
              .filter((entry) => entry.leg === leg.leg)
              .map((entry) => ({
                kind: entry.kind,
                amount: entry.amount,
                transaction_hash: entry.txRef,
                counterparty_address: entry.counterpartyAddress,
                confirmations: entry.confirmations,
                status: entry.status,
                created_at: entry.createdAt.toISOString(),
              })),
          })),
        }
      : null,
    payouts: payouts.map((payout) => ({
      id: payout.id,
      leg: payout.leg,
      chain: payout.chain,
      kind: payout.kind,
      source: payout.source,
      status: payout.status,
      transaction_hash: payout.txRef,
      error: payout.error,
      submitted_at: iso(payout.submittedAt),
      confirmed_at: iso(payout.confirmedAt),
      created_at: payout.createdAt.toISOString(),
    })),
    audit,
    alerts: alerts.map(({ alert, resolvedBy }) => ({
      id: alert.id,
      kind: alert.kind,
      subject: alert.subject,
      message: alert.message,
      details: alert.details,
      created_at: alert.createdAt.toISOString(),
      resolved_at: iso(alert.resolvedAt),
      resolved_by: resolvedBy,
    })),
  };
}
