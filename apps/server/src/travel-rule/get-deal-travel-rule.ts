import { schema } from '@covenant/db';
import { AppError, type TravelRuleDocument } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import type { Principal } from '../api/principal.js';
import { requireStaff } from '../api/require-staff.js';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { openTravelRuleDocument } from './seal-travel-rule-document.js';
import type { TravelRuleDeps } from './travel-rule-deps.js';

/**
 * The IVMS 101 document a deal's escrow exchanged, for the deal's two parties and compliance staff
 * (with a second factor); anyone else gets 403. 404 for a deal that exchanged none: below $1,000, or
 * its escrow not opened yet. Every read by compliance staff is appended to the deal's audit trail
 * before the document is answered.
 */
export async function getDealTravelRule(
  deps: Pick<TravelRuleDeps, 'db' | 'now'> & { masterKey: Buffer },
  principal: Principal,
  dealId: string,
): Promise<TravelRuleDocument> {
  const [deal] = await deps.db
    .select({ buyerId: schema.deals.buyerId, sellerId: schema.deals.sellerId })
    .from(schema.deals)
    .where(eq(schema.deals.id, dealId));
  if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
  const party = principal.userId === deal.buyerId || principal.userId === deal.sellerId;
  if (!party) {
    if (!principal.roles.includes('compliance')) {
      throw new AppError(
        'FORBIDDEN',
        'A deal’s Travel Rule information is open to its two parties and compliance staff only',
      );
    }
    requireStaff(principal, ['compliance'], 'Travel Rule information');
  }
  const [row] = await deps.db
    .select()
    .from(schema.dealTravelRule)
    .where(eq(schema.dealTravelRule.dealId, dealId));
  if (!row) {
    throw new AppError(
      'NOT_FOUND',
      'No Travel Rule information was exchanged for this deal: it is below $1,000 or its escrow is not open yet',
    );
  }
  const document = openTravelRuleDocument(deps.masterKey, dealId, row.documentSealed);
  if (!party) {
    await deps.db.transaction(async (tx) => {
      await tx
        .select({ id: schema.deals.id })
        .from(schema.deals)
        .where(eq(schema.deals.id, dealId))
        .for('update');
      await appendDealEvent(tx, {
        dealId,
        actorId: principal.userId,
        action: 'travel_rule_read_by_staff',
        payload: { role: 'compliance' },
        createdAt: deps.now(),
      });
    });
  }
  return document;
}
