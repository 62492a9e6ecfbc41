import { AppError } from '@covenant/domain';
import type { DepositOutput } from './escrow-chain-adapter.js';

/** Largest amount first; equal amounts by transaction and position, so the choice is repeatable. */
export function largestFirst(a: DepositOutput, b: DepositOutput): number {
  if (a.amount !== b.amount) return a.amount > b.amount ? -1 : 1;
  if (a.txRef !== b.txRef) return a.txRef < b.txRef ? -1 : 1;
  return a.position - b.position;
}

/**
 * The deposit outputs a payout spends on a chain that caps them (`maxPayoutInputs`): every one when
 * they fit, as before. Otherwise the largest first, as few as cover `needed` (a release or a split
 * pays the leg's amount out of them; a refund, `needed` 0, takes the largest `max`). What is left
 * stays on the leg and goes back to the depositor once this payout is confirmed, as late deposits:
 * the depositor who split a deposit into so many outputs pays those returns' network fees, not the
 * receiver. Throws INSUFFICIENT_BALANCE when even the largest `max` outputs do not cover `needed`.
 */
export function choosePayoutInputs(
  deposits: readonly DepositOutput[],
  max: number,
  needed: bigint,
): readonly DepositOutput[] {
  if (!Number.isInteger(max) || max < 1) throw new Error(`a payout spends at least one input, not ${max}`);
  if (deposits.length <= max) return deposits;
  const largest = [...deposits].sort(largestFirst);
  if (needed <= 0n) return largest.slice(0, max);
  const chosen: DepositOutput[] = [];
  let covered = 0n;
  for (const deposit of largest) {
    if (covered >= needed || chosen.length === max) break;
    chosen.push(deposit);
    covered += deposit.amount;
  }
  if (covered < needed) {
    throw new AppError(
      'INSUFFICIENT_BALANCE',
      `Paying ${needed} takes more than ${max} of the leg's deposit outputs, more than one transaction can spend`,
      { required: needed.toString(), available: covered.toString(), max_inputs: max },
    );
  }
  return chosen;
}
