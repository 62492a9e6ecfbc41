import { type Payout, PayoutAction, refundPayout, splitPayout } from '@covenant/contracts';
import { AppError } from '@covenant/domain';
import { getAddress, hashStruct } from 'viem';
import type { UnsignedPayout } from '../chain-adapter.js';
import type { SettlementPlan } from '../settlement-plan.js';
import type { EscrowLeg } from '../types.js';
import { type PayoutTypedData, payoutTypedDataTypes, typedDataToJson } from './payout-typed-data.js';

/** Every payout an escrow executes is its first and last: a payout settles it and consumes nonce 0. */
const PAYOUT_NONCE = 0n;

/**
 * The escrow payout that carries out a plan for a leg, as EIP-712 typed data (in JSON) for two of
 * the three signers. The contract computes the fee and the depositor's remainder itself, so only
 * what reaches the receiver is signed: a release names the terms' receiver and amount, a split the
 * receiver's gross share (its payout plus its fee), a refund nothing. A split giving the receiver
 * nothing is a refund, which the contract does without recipients.
 */
export function buildEthereumPayout(chainId: number, leg: EscrowLeg, plan: SettlementPlan): UnsignedPayout {
  if (plan.escrowId !== leg.escrowId || plan.leg !== leg.leg) {
    throw new AppError('VALIDATION_FAILED', 'The settlement plan is for another leg', {
      issues: [
        { path: '/plan', message: `plan of ${plan.escrowId}/${plan.leg}, leg ${leg.escrowId}/${leg.leg}` },
      ],
    });
  }
  const escrow = getAddress(leg.depositAddress);
  const payout = payoutFor(leg, plan);
  const typedData: PayoutTypedData = {
    domain: { name: 'CovenantEscrow', version: '1', chainId, verifyingContract: escrow },
    types: payoutTypedDataTypes,
    primaryType: 'Payout',
    message: payout,
  };
  const messageHash = hashStruct({ data: payout, primaryType: 'Payout', types: payoutTypedDataTypes });
  return {
    chain: 'ETH',
    escrowId: leg.escrowId,
    leg: leg.leg,
    payoutRef: `${escrow}:${payout.action}:${payout.nonce}:${messageHash}`,
    signingPayload: typedDataToJson(typedData),
  };
}

function payoutFor(leg: EscrowLeg, plan: SettlementPlan): Payout {
  if (plan.outcome === 'release') {
    return {
      action: PayoutAction.Release,
      recipients: [getAddress(leg.receiverPayoutAddress)],
      amounts: [leg.requiredAmount],
      nonce: PAYOUT_NONCE,
    };
  }
  if (plan.outcome === 'refund') return refundPayout(PAYOUT_NONCE);
  const amountOf = (kind: 'payout' | 'fee') =>
    plan.transfers
      .filter((transfer) => transfer.kind === kind)
      .reduce((sum, transfer) => sum + transfer.amount, 0n);
  const gross = amountOf('payout') + amountOf('fee');
  if (gross === 0n) return refundPayout(PAYOUT_NONCE);
  return splitPayout([{ recipient: getAddress(leg.receiverPayoutAddress), amount: gross }], PAYOUT_NONCE);
}
