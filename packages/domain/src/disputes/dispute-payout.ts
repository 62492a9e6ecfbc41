import { AppError } from '../errors.js';
import type { DisputeDecision } from './dispute.js';

/** One leg's amounts in base units: what the escrow holds, and what goes to each party. */
export interface LegPayout {
  buyer: bigint;
  seller: bigint;
}

export interface DisputePayout {
  /** The asset leg, deposited by the seller. */
  asset: LegPayout;
  /** The stable leg, deposited by the buyer. */
  stable: LegPayout;
}

/**
 * Who receives what of each leg under a mediator's decision. Release carries out the trade (asset to
 * the buyer, stable to the seller); refund returns each deposit to whoever made it (asset to the
 * seller, stable to the buyer); a split takes the mediator's amounts, which must add up exactly to
 * each leg, since the escrow can neither create nor strand a base unit. Fees are not deducted here.
 */
export function disputePayout(
  legs: { asset: bigint; stable: bigint },
  decision: DisputeDecision,
  split?: DisputePayout,
): DisputePayout {
  if (decision === 'release') {
    return { asset: { buyer: legs.asset, seller: 0n }, stable: { buyer: 0n, seller: legs.stable } };
  }
  if (decision === 'refund') {
    return { asset: { buyer: 0n, seller: legs.asset }, stable: { buyer: legs.stable, seller: 0n } };
  }
  if (!split) {
    throw new AppError('VALIDATION_FAILED', 'A split needs the amounts per leg', {
      issues: [{ path: '/split', message: 'A split needs the amounts per leg' }],
    });
  }
  const issues = (['asset', 'stable'] as const).flatMap((leg) => {
    const sum = split[leg].buyer + split[leg].seller;
    return sum === legs[leg]
      ? []
      : [
          {
            path: `/split/${leg}`,
            message: `The ${leg} leg's amounts add up to ${sum}, not to the ${legs[leg]} the escrow holds`,
            expected: legs[leg].toString(),
            actual: sum.toString(),
          },
        ];
  });
  if (issues.length > 0) {
    throw new AppError('VALIDATION_FAILED', "Each leg's split must add up exactly to the leg", { issues });
  }
  return split;
}
