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

/**
 * One transfer out of a leg, in base units. `travel` pays a travel provider for the deal's meeting
 * out of the leg before it settles (no fee).
 */
export interface Transfer {
  kind: 'payout' | 'fee' | 'refund' | 'travel';
  to: string;
  amount: bigint;
}

/**
 * The exact transfers of one payout of a leg. A settlement (`release`, `refund`, `split`) pays out
 * everything the escrow still holds; a `travel` payout pays one provider and leaves the leg open.
 * `travelCharge` is what a release takes off the receiver's payout for travel already paid (the
 * receiver's share of it), 0n otherwise.
 */
export interface SettlementPlan {
  escrowId: string;
  leg: Leg;
  outcome: SettlementOutcome['kind'] | 'travel';
  transfers: Transfer[];
  travelCharge: bigint;
}

export type PlannedLeg = Pick<
  EscrowLeg,
  'escrowId' | 'leg' | 'chain' | 'requiredAmount' | 'receiverPayoutAddress' | 'depositorRefundAddress'
>;

/**
 * Travel already paid out of a leg before its settlement: `paid` = the leg's confirmed travel
 * payouts so far, `charged` = the part of them the receiver bears (see `travelReceiverShare` in
 * @covenant/domain), at most `paid`.
 */
export interface PaidTravel {
  paid: bigint;
  charged: bigint;
}

/**
 * A travel payout: exactly `amount` to `payee` out of the leg, without fee, before the leg settles.
 * Whether the leg can afford it and still settle is the caller's check (`travelQuoteShortfall`).
 */
export function planTravelPayout(
  leg: Pick<PlannedLeg, 'escrowId' | 'leg'>,
  payee: string,
  amount: bigint,
): SettlementPlan {
  if (amount <= 0n || payee.trim() === '') {
    throw new AppError('VALIDATION_FAILED', 'A travel payout needs a payee and an amount above zero', {
      issues: [
        {
          path: `/travel/${leg.leg}`,
          message: 'A travel payout needs a payee and an amount above zero',
          actual: amount.toString(),
        },
      ],
    });
  }
  return {
    escrowId: leg.escrowId,
    leg: leg.leg,
    outcome: 'travel',
    transfers: [{ kind: 'travel', to: payee, amount }],
    travelCharge: 0n,
  };
}

/**
 * The transfers that settle a leg holding `received` base units (confirmed deposits), after
 * `travel.paid` of them already went to travel providers.
 *
 * The fee is 1 bp, rounded down, of what moves to the receiver, paid to the chain's fee address in
 * the same transaction: on a release that is the required amount; on a refund nothing moves to the
 * receiver, so there is no fee; on a split only `toReceiver` is traded, so the fee is 1 bp of it and
 * the depositor's share comes back whole, like a refund. Anything received beyond the required
 * amount returns to the depositor in every case, merged with the depositor's share into one refund.
 * Transfers of zero are left out. Payout and refund addresses are the leg's, fixed when the escrow
 * was created from the accepted terms (the Ethereum escrow commits to them).
 *
 * Travel paid is gone from the escrow, so what leaves now adds up to `received − paid`:
 * - release: the receiver gets `amount − fee − charged` (its share of the travel), the depositor
 *   `received − paid − (amount − charged)`; a leg holding less than `amount − charged` is refused
 *   with INSUFFICIENT_BALANCE;
 * - refund: the depositor gets `received − paid`;
 * - split: the receiver's share is as decided, the depositor's is reduced by the travel paid
 *   (`received − paid − toReceiver`); a split whose receiver's share exceeds what is left is refused
 *   with INSUFFICIENT_BALANCE, as the escrow can no longer pay it.
 */
export function planSettlement(
  leg: PlannedLeg,
  received: bigint,
  outcome: SettlementOutcome,
  feeAddress: string,
  travel: PaidTravel = { paid: 0n, charged: 0n },
): SettlementPlan {
  const { paid, charged } = travel;
  if (paid < 0n || charged < 0n || charged > paid || paid > received) {
    throw new AppError('VALIDATION_FAILED', 'The travel paid out of the leg does not fit its deposits', {
      issues: [
        {
          path: `/travel/${leg.leg}`,
          message:
            'Travel charged to the receiver must be between 0 and the travel paid, itself at most what was received',
          paid: paid.toString(),
          charged: charged.toString(),
          received: received.toString(),
        },
      ],
    });
  }
  const held = received - paid;
  const travelCharge = outcome.kind === 'release' ? charged : 0n;
  const plan = (transfers: Transfer[]): SettlementPlan => ({
    escrowId: leg.escrowId,
    leg: leg.leg,
    outcome: outcome.kind,
    transfers: transfers.filter((transfer) => transfer.amount > 0n),
    travelCharge,
  });
  if (outcome.kind === 'refund') {
    return plan([{ kind: 'refund', to: leg.depositorRefundAddress, amount: held }]);
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
  const fee = platformFee(toReceiver);
  if (outcome.kind === 'release') {
    if (charged > leg.requiredAmount - fee) {
      throw new AppError('VALIDATION_FAILED', "The receiver's travel share exceeds its payout", {
        issues: [
          {
            path: `/travel/${leg.leg}`,
            message: "The receiver's travel share exceeds its payout",
            expected: (leg.requiredAmount - fee).toString(),
            actual: charged.toString(),
          },
        ],
      });
    }
    // Refuses a leg holding less than the release takes out with INSUFFICIENT_BALANCE, and yields the excess.
    const { excessToDepositor } = legPayout(leg.requiredAmount - charged, held, leg.chain);
    return plan([
      { kind: 'payout', to: leg.receiverPayoutAddress, amount: toReceiver - fee - charged },
      { kind: 'fee', to: feeAddress, amount: fee },
      { kind: 'refund', to: leg.depositorRefundAddress, amount: excessToDepositor },
    ]);
  }
  // A split settles a funded leg only: refuses a short one with INSUFFICIENT_BALANCE.
  legPayout(leg.requiredAmount, received, leg.chain);
  // The receiver's share must still be in the escrow; the depositor's takes what travel left.
  if (held < toReceiver) {
    throw new AppError(
      'INSUFFICIENT_BALANCE',
      "After the travel paid out of it, the escrow holds less than the split's share for the receiver",
      {
        required: toReceiver.toString(),
        available: held.toString(),
        travel_paid: paid.toString(),
        chain: leg.chain,
      },
    );
  }
  return plan([
    { kind: 'payout', to: leg.receiverPayoutAddress, amount: toReceiver - fee },
    { kind: 'fee', to: feeAddress, amount: fee },
    { kind: 'refund', to: leg.depositorRefundAddress, amount: held - toReceiver },
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
