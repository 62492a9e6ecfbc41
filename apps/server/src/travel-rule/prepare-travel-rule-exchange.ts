import {
  AppError,
  type TravelRuleDocument,
  travelRuleGapMessage,
  travelRuleThresholdUsd,
} from '@covenant/domain';
import { assembleDealTravelRule, type DealAddressRow, type DealRow } from './assemble-deal-travel-rule.js';
import type { TravelRuleDeps } from './travel-rule-deps.js';

export type PreparedTravelRule = Omit<TravelRuleDocument, 'exchanged_at'>;

/**
 * The Travel Rule document a deal's escrow exchanges as it opens, or null for a deal below the
 * threshold. A party whose records lack a required element stops the escrow with
 * TRAVEL_RULE_INCOMPLETE (422), naming what is missing and whose (`details.missing`).
 */
export async function prepareTravelRuleExchange(
  deps: Pick<TravelRuleDeps, 'db' | 'fileStore'>,
  deal: DealRow,
  addresses: DealAddressRow[],
): Promise<PreparedTravelRule | null> {
  const travelRule = await assembleDealTravelRule(deps, deal, addresses);
  if (!travelRule.applies) return null;
  const { assembly } = travelRule;
  if (!assembly.complete) {
    throw new AppError('TRAVEL_RULE_INCOMPLETE', travelRuleGapMessage(assembly.gaps), {
      missing: assembly.gaps,
    });
  }
  return {
    deal_id: deal.id,
    standard: 'IVMS 101',
    threshold_usd: travelRuleThresholdUsd.toString(),
    value_usd: travelRule.valueUsd,
    transfers: assembly.transfers.map((transfer) => ({
      leg: transfer.leg,
      chain: transfer.chain,
      symbol: transfer.symbol,
      amount: transfer.amount,
      originator: transfer.originator,
      beneficiary: transfer.beneficiary,
      ivms101: transfer.ivms101,
    })),
  };
}
