import type { DisputeAmounts } from '@covenant/domain';
import { formatTokenAmount, toBaseUnits } from './token-amount.js';

export type Leg = 'asset' | 'stable';
export type SplitInputs = Record<Leg, { buyer: string; seller: string }>;
export interface LegTotals {
  asset: { amount: string; symbol: string };
  stable: { amount: string; symbol: string };
}

/**
 * The mediator's split typed in whole tokens → base units per leg, checked exactly as the server
 * will: every amount an exact token amount, and each leg's two amounts adding up to the whole leg.
 */
export function readSplit(
  inputs: SplitInputs,
  legs: LegTotals,
):
  | { split: DisputeAmounts; problems: undefined }
  | { split: undefined; problems: Partial<Record<Leg, string>> } {
  const problems: Partial<Record<Leg, string>> = {};
  const split = { asset: { buyer: '', seller: '' }, stable: { buyer: '', seller: '' } };
  for (const leg of ['asset', 'stable'] as const) {
    const { amount, symbol } = legs[leg];
    const buyer = toBaseUnits(inputs[leg].buyer, symbol);
    const seller = toBaseUnits(inputs[leg].seller, symbol);
    if (buyer === null || seller === null) {
      problems[leg] = `Enter both amounts in ${symbol}, e.g. 0.5 (0 for nothing)`;
      continue;
    }
    const total = BigInt(amount);
    if (buyer + seller !== total) {
      problems[leg] =
        `Buyer and seller must add up to ${formatTokenAmount(total, symbol)}; ` +
        `they add up to ${formatTokenAmount(buyer + seller, symbol)}`;
      continue;
    }
    split[leg] = { buyer: buyer.toString(), seller: seller.toString() };
  }
  if (problems.asset || problems.stable) return { split: undefined, problems };
  return { split, problems: undefined };
}
