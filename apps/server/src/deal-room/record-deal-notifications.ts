import { schema } from '@covenant/db';
import { sql } from 'drizzle-orm';
import type { DealEvent, Transaction } from '../deals/append-deal-event.js';
import { describeDealEvent } from './describe-deal-event.js';

/**
 * One notification per party of the deal except the one who acted: the other party for a party's
 * action, both parties for the platform's or a mediator's. A single statement in the event's
 * transaction; e-mail addresses are looked up later by the sender, outside it.
 */
export async function recordDealNotifications(tx: Transaction, event: DealEvent): Promise<void> {
  const described = describeDealEvent(event.action, event.payload);
  if (!described) return;
  const { deals, notifications } = schema;
  await tx.execute(sql`
    insert into ${notifications} (user_id, deal_id, kind, title, body, created_at)
    select party.id, ${deals.id}, ${event.action}, ${described.title}, ${described.body}, ${event.createdAt.toISOString()}::timestamptz
    from ${deals} cross join lateral (values (${deals.buyerId}), (${deals.sellerId})) as party(id)
    where ${deals.id} = ${event.dealId} and party.id is distinct from ${event.actorId}::uuid`);
}
