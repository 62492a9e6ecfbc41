import { AppError } from './errors.js';

/** The platform fee, 0.01 % of a leg's value, as basis points (1 bp = 1 / 10 000). */
export const feeBasisPoints = 1n;

const basisPointsPerWhole = 10_000n;

/**
 * The platform fee on an amount in base units, rounded down: a leg too small to owe a whole base
 * unit owes nothing, so the fee never takes more than 0.01 % from the receiver.
 */
export function platformFee(amount: bigint): bigint {
  if (amount < 0n) {
    throw new AppError('VALIDATION_FAILED', 'An amount cannot be negative', {
      issues: [{ path: '/amount', message: 'An amount cannot be negative', actual: amount.toString() }],
    });
  }
  return (amount * feeBasisPoints) / basisPointsPerWhole;
}

/** How one funded leg is paid out at settlement, in base units. */
export interface LegPayoutSplit {
  /** The required amount less the platform fee. */
  receiver: bigint;
  /** The platform fee on the required amount, to the chain's fee address. */
  fee: bigint;
  /** Whatever was deposited beyond the required amount, returned to the depositor. */
  excessToDepositor: bigint;
}

/**
 * Splits a leg's deposit at settlement. The fee is charged on the required amount only, so an
 * overpayment goes back whole to whoever sent it. A leg holding less than required cannot settle.
 */
export function legPayout(required: bigint, received: bigint, chain: string): LegPayoutSplit {
  if (received < required) {
    throw new AppError('INSUFFICIENT_BALANCE', 'The escrow holds less than the leg requires', {
      required: required.toString(),
      available: received.toString(),
      chain,
    });
  }
  const fee = platformFee(required);
  return { receiver: required - fee, fee, excessToDepositor: received - required };
}
