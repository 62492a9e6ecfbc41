import { AppError, legPayout, platformFee } from '@covenant/domain';
import { type EscrowLeg, type Leg, legDepositor, legReceiver } from './types.js';

/**
 * What to do with a leg: `release` pays it per the terms, `refund` returns it to its depositor, a
 * `split` (a mediator's decision) gives `toReceiver` to the party the leg was meant for and
 * `toDepositor` back to the party who funded it; the two add up to the leg's required amount.
 */
export type SettlementOutcome =
  | { kind: 'release' }
  | { kind: 'refund' }
  | { kind: 'split'; toReceiver: bigint; toDepositor: bigint };

/** One transfer out of a leg's escrow, in base units. */
export interface Transfer {
  kind: 'payout' | 'fee' | 'refund';
  to: string;
  amount: bigint;
}

/** The exact transfers that settle a leg; what leaves adds up to what the escrow holds. */
export interface SettlementPlan {
  escrowId: string;
  leg: Leg;
  outcome: SettlementOutcome['kind'];
  transfers: Transfer[];
}

export type PlannedLeg = Pick<
  EscrowLeg,
  'escrowId' | 'leg' | 'chain' | 'requiredAmount' | 'receiverPayoutAddress' | 'depositorRefundAddress'
>;

/**
 * The transfers that settle a leg holding `received` base units (confirmed deposits).
 *
 * The fee is 1 bp, rounded down, of what moves to the receiver, paid to the chain's fee address in
 * the same transaction: on a release that is the required amount; on a refund nothing moves to the
 * receiver, so there is no fee; on a split only `toReceiver` is traded, so the fee is 1 bp of it and
 * the depositor's share comes back whole, like a refund. Anything received beyond the required
 * amount returns to the depositor in every case, merged with the depositor's share into one refund.
 * Transfers of zero are left out. Payout and refund addresses are the leg's, fixed when the escrow
 * was created from the accepted terms (the Ethereum escrow commits to them).
 */
export function planSettlement(
  leg: PlannedLeg,
  received: bigint,
  outcome: SettlementOutcome,
  feeAddress: string,
): SettlementPlan {
  const plan = (transfers: Transfer[]): SettlementPlan => ({
    escrowId: leg.escrowId,
    leg: leg.leg,
    outcome: outcome.kind,
    transfers: transfers.filter((transfer) => transfer.amount > 0n),
  });
  if (outcome.kind === 'refund') {
    return plan([{ kind: 'refund', to: leg.depositorRefundAddress, amount: received }]);
  }
  const { toReceiver, toDepositor } =
    outcome.kind === 'release' ? { toReceiver: leg.requiredAmount, toDepositor: 0n } : outcome;
  if (toReceiver < 0n || toDepositor < 0n || toReceiver + toDepositor !== leg.requiredAmount) {
    throw new AppError('VALIDATION_FAILED', "A split must add up exactly to the leg's amount", {
      issues: [
        {
          path: `/split/${leg.leg}`,
          message: "A split must add up exactly to the leg's amount",
          expected: leg.requiredAmount.toString(),
          actual: (toReceiver + toDepositor).toString(),
        },
      ],
    });
  }
  // Refuses a short leg with INSUFFICIENT_BALANCE, and yields the excess.
  const { excessToDepositor } = legPayout(leg.requiredAmount, received, leg.chain);
  const fee = platformFee(toReceiver);
  return plan([
    { kind: 'payout', to: leg.receiverPayoutAddress, amount: toReceiver - fee },
    { kind: 'fee', to: feeAddress, amount: fee },
    { kind: 'refund', to: leg.depositorRefundAddress, amount: toDepositor + excessToDepositor },
  ]);
}

/**
 * One leg of the `escrow_instructions` payload a mediator's decision queues (amounts as base-unit
 * decimal strings, as stored in JSON).
 */
export interface MediatorLegInstruction {
  chain: string;
  symbol: string;
  amount: string;
  deposited_by: 'buyer' | 'seller';
  to_buyer: string;
  to_seller: string;
  buyer_address: string | null;
  seller_address: string | null;
}

export interface MediatorInstruction {
  dispute_id: string;
  decision: 'release' | 'refund' | 'split';
  buyer_id: string;
  seller_id: string;
  legs: Record<Leg, MediatorLegInstruction>;
}

/** The outcome a mediator's decision asks for on one leg, with the per-party amounts of a split. */
export function mediatorOutcome(instruction: MediatorInstruction, leg: Leg): SettlementOutcome {
  if (instruction.decision !== 'split') {
    return { kind: instruction.decision };
  }
  const legInstruction = instruction.legs[leg];
  const share = (party: 'buyer' | 'seller') =>
    BigInt(party === 'buyer' ? legInstruction.to_buyer : legInstruction.to_seller);
  return { kind: 'split', toReceiver: share(legReceiver[leg]), toDepositor: share(legDepositor[leg]) };
}
