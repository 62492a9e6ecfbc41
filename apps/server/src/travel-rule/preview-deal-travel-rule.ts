import { schema } from '@covenant/db';
import {
  AppError,
  type TravelRulePreview,
  travelRuleGapMessage,
  travelRulePersonOf,
  travelRuleThresholdUsd,
} from '@covenant/domain';
import { and, eq, or } from 'drizzle-orm';
import { assembleDealTravelRule } from './assemble-deal-travel-rule.js';
import type { TravelRuleDeps } from './travel-rule-deps.js';

/**
 * What the Travel Rule asks of a deal as it stands, for one of its parties (anyone else: 404):
 * whether it applies, the caller's own IVMS 101 Person as it would be sent, and what either party
 * still lacks, in the words the escrow's refusal would use. The counterparty's data stays out until
 * the escrow opens and exchanges it.
 */
export async function previewDealTravelRule(
  deps: Pick<TravelRuleDeps, 'db' | 'fileStore'>,
  userId: string,
  dealId: string,
): Promise<TravelRulePreview> {
  const [deal] = await deps.db
    .select()
    .from(schema.deals)
    .where(
      and(
        eq(schema.deals.id, dealId),
        or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId)),
      ),
    );
  if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
  const party = deal.buyerId === userId ? 'buyer' : 'seller';
  const [addresses, exchanged] = await Promise.all([
    deps.db.select().from(schema.dealAddresses).where(eq(schema.dealAddresses.dealId, dealId)),
    deps.db
      .select({ dealId: schema.dealTravelRule.dealId })
      .from(schema.dealTravelRule)
      .where(eq(schema.dealTravelRule.dealId, dealId)),
  ]);
  const travelRule = await assembleDealTravelRule(deps, deal, addresses);
  const common = {
    threshold_usd: travelRuleThresholdUsd.toString(),
    value_usd: travelRule.valueUsd,
    exchanged: exchanged.length > 0,
    party,
  } as const;
  if (!travelRule.applies) return { ...common, applies: false, person: null, gaps: [], message: null };
  const gaps = travelRule.assembly.complete ? [] : travelRule.assembly.gaps;
  return {
    ...common,
    applies: true,
    person: travelRulePersonOf(travelRule.records[party]).person,
    gaps,
    message: gaps.length > 0 ? travelRuleGapMessage(gaps) : null,
  };
}
