import { type Db, schema } from '@covenant/db';
import { AppError, type DealAuditTrail, findBrokenAuditEntry } from '@covenant/domain';
import { and, asc, eq, or } from 'drizzle-orm';

/** A deal's audit trail for one of its parties, with the chain verified afresh; anybody else gets NOT_FOUND. */
export async function getDealAudit(db: Db, userId: string, dealId: string): Promise<DealAuditTrail> {
  const [deal] = await db
    .select({ id: schema.deals.id })
    .from(schema.deals)
    .where(
      and(
        eq(schema.deals.id, dealId),
        or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId)),
      ),
    );
  if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
  return readAuditTrail(db, dealId);
}

/** Any deal's audit trail for staff (the route checks the role), verified afresh; NOT_FOUND for no such deal. */
export async function getDealAuditForStaff(db: Db, dealId: string): Promise<DealAuditTrail> {
  const [deal] = await db
    .select({ id: schema.deals.id })
    .from(schema.deals)
    .where(eq(schema.deals.id, dealId));
  if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
  return readAuditTrail(db, dealId);
}

async function readAuditTrail(db: Db, dealId: string): Promise<DealAuditTrail> {
  const rows = await db
    .select()
    .from(schema.dealAuditEntries)
    .where(eq(schema.dealAuditEntries.dealId, dealId))
    .orderBy(asc(schema.dealAuditEntries.seq));
  const entries = rows.map((row) => ({
    seq: row.seq,
    action: row.action,
    actor_id: row.actorId,
    payload: row.payload,
    created_at: row.createdAt.toISOString(),
    prev_hash: row.prevHash,
    hash: row.hash,
  }));
  const brokenAt = findBrokenAuditEntry(entries.map((entry) => ({ ...entry, deal_id: dealId })));
  return { deal_id: dealId, entries, verified: brokenAt === null, broken_at_seq: brokenAt };
}
