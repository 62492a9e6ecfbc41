import { type Db, schema } from '@covenant/db';
import { type CanonicalValue, genesisHash, hashAuditEntry } from '@covenant/domain';
import { desc, eq, sql } from 'drizzle-orm';
import { recordDealNotifications } from '../deal-room/record-deal-notifications.js';

export type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface DealEvent {
  dealId: string;
  actorId: string | null;
  action: string;
  payload: { [key: string]: CanonicalValue };
  createdAt: Date;
}

/**
 * Records something that happened to a deal, inside the transaction that made it happen: the next
 * entry of the hash-chained audit trail, the same event in the deal's history (what
 * GET /deals/{id} shows), and a notification for each party who did not act (e-mailed later).
 * The caller holds the deal's row lock (or has just created the deal), so no other transaction
 * appends to the same chain meanwhile; the (deal_id, seq) key refuses a fork anyway.
 */
export async function appendDealEvent(tx: Transaction, event: DealEvent): Promise<void> {
  const [last] = await tx
    .select({ seq: schema.dealAuditEntries.seq, hash: schema.dealAuditEntries.hash })
    .from(schema.dealAuditEntries)
    .where(eq(schema.dealAuditEntries.dealId, event.dealId))
    .orderBy(desc(schema.dealAuditEntries.seq))
    .limit(1);
  const seq = (last?.seq ?? 0) + 1;
  const prevHash = last?.hash ?? genesisHash;
  const hash = hashAuditEntry(prevHash, {
    deal_id: event.dealId,
    seq,
    actor_id: event.actorId,
    action: event.action,
    payload: event.payload,
    created_at: event.createdAt.toISOString(),
  });
  await tx.insert(schema.dealAuditEntries).values({
    dealId: event.dealId,
    seq,
    actorId: event.actorId,
    action: event.action,
    payload: event.payload,
    createdAt: event.createdAt,
    prevHash,
    hash,
  });
  const history = schema.dealHistory;
  await tx.insert(history).values({
    dealId: event.dealId,
    // Deals from before the audit trail have history without audit entries, so history numbers its own.
    seq: sql`(select coalesce(max(${history.seq}), 0) + 1 from ${history} where ${history.dealId} = ${event.dealId})`,
    action: event.action,
    actorId: event.actorId,
    details: event.payload,
    createdAt: event.createdAt,
  });
  await recordDealNotifications(tx, event);
}
