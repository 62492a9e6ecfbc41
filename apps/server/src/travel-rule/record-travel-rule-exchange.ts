import { schema } from '@covenant/db';
import { appendDealEvent, type Transaction } from '../deals/append-deal-event.js';
import type { PreparedTravelRule } from './prepare-travel-rule-exchange.js';
import { sealTravelRuleDocument } from './seal-travel-rule-document.js';

/**
 * Stores the exchanged document sealed with the deal, in the transaction that opens its escrow, and
 * records the exchange in the audit trail: which legs, who was originator and beneficiary, never
 * the personal data itself.
 */
export async function recordTravelRuleExchange(
  tx: Transaction,
  masterKey: Buffer,
  prepared: PreparedTravelRule,
  actorId: string,
  exchangedAt: Date,
): Promise<void> {
  const document = { ...prepared, exchanged_at: exchangedAt.toISOString() };
  await tx.insert(schema.dealTravelRule).values({
    dealId: document.deal_id,
    documentSealed: sealTravelRuleDocument(masterKey, document),
    exchangedAt,
  });
  await appendDealEvent(tx, {
    dealId: document.deal_id,
    actorId,
    action: 'travel_rule_exchanged',
    payload: {
      standard: document.standard,
      value_usd: document.value_usd,
      legs: document.transfers.map(({ leg, originator, beneficiary }) => ({ leg, originator, beneficiary })),
    },
    createdAt: exchangedAt,
  });
}
