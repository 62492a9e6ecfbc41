import type { schema } from '@covenant/db';
import {
  assembleTravelRule,
  type DealParty,
  type StableSymbol,
  stableSymbols,
  type TravelRuleAssembly,
  type TravelRuleRecords,
  travelRuleApplies,
  usdValueOf,
} from '@covenant/domain';
import { loadTravelRuleRecords } from './load-travel-rule-records.js';
import type { TravelRuleDeps } from './travel-rule-deps.js';

export type DealRow = typeof schema.deals.$inferSelect;
export type DealAddressRow = typeof schema.dealAddresses.$inferSelect;

export type DealTravelRule =
  | { applies: false; valueUsd: string }
  | {
      applies: true;
      valueUsd: string;
      records: Record<DealParty, TravelRuleRecords>;
      assembly: TravelRuleAssembly;
    };

/**
 * Whether the Travel Rule applies to the deal as its terms stand (valued like the tier limits: the
 * stable leg at $1 a token) and, when it does, both legs' originator and beneficiary assembled from
 * the parties' records and addresses, or what is missing.
 */
export async function assembleDealTravelRule(
  deps: Pick<TravelRuleDeps, 'db' | 'fileStore'>,
  deal: DealRow,
  addresses: DealAddressRow[],
): Promise<DealTravelRule> {
  if (!(stableSymbols as readonly string[]).includes(deal.stableSymbol)) {
    throw new Error(`deal ${deal.id} has no stable leg in USDC or USDT`);
  }
  const stableSymbol = deal.stableSymbol as StableSymbol;
  const stableAmount = BigInt(deal.stableAmount);
  const valueUsd = usdValueOf(stableAmount, stableSymbol);
  if (!travelRuleApplies(stableAmount, stableSymbol)) return { applies: false, valueUsd };
  const records = await loadTravelRuleRecords(deps, deal);
  const accountsOf = (party: DealParty) => {
    const row = addresses.find((address) => address.party === party);
    return row ? { payoutAddress: row.payoutAddress, refundAddress: row.refundAddress } : null;
  };
  const assembly = assembleTravelRule({
    legs: [
      { leg: 'asset', chain: deal.assetChain, symbol: deal.assetSymbol, amount: deal.assetAmount },
      { leg: 'stable', chain: deal.stableChain, symbol: deal.stableSymbol, amount: deal.stableAmount },
    ],
    records,
    accounts: { buyer: accountsOf('buyer'), seller: accountsOf('seller') },
  });
  return { applies: true, valueUsd, records, assembly };
}
