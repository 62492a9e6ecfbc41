import { type Payout, PayoutAction, refundPayout, splitPayout, travelPayout } from '@covenant/contracts';
import { AppError, escrowPayoutDomain } from '@covenant/domain';
import { type Address, getAddress, hashStruct, isAddress } from 'viem';
import type { UnsignedPayout } from '../chain-adapter.js';
import type { SettlementPlan } from '../settlement-plan.js';
import type { EscrowLeg } from '../types.js';
import { type PayoutTypedData, payoutTypedDataTypes, typedDataToJson } from './payout-typed-data.js';

/**
 * The escrow payout that carries out a plan for a leg, as EIP-712 typed data (in JSON) for two of
 * the three signers, signed for the escrow's `nonce` (its next payout: 0 until travel payouts
 * consumed some). The contract computes the fee and the depositor's remainder itself, so only
 * what reaches the receiver is signed: a release names the terms' receiver and amount (and the
 * receiver's travel charge as a second amount when there is one), a split the receiver's gross
 * share (its payout plus its fee), a refund nothing, a travel payout its payee and amount. A split
 * giving the receiver nothing is a refund, which the contract does without recipients.
 */
export function buildEthereumPayout(
  chainId: number,
  leg: EscrowLeg,
  plan: SettlementPlan,
  nonce = 0n,
): UnsignedPayout {
  if (plan.escrowId !== leg.escrowId || plan.leg !== leg.leg) {
    throw new AppError('VALIDATION_FAILED', 'The settlement plan is for another leg', {
      issues: [
        { path: '/plan', message: `plan of ${plan.escrowId}/${plan.leg}, leg ${leg.escrowId}/${leg.leg}` },
      ],
    });
  }
  const escrow = getAddress(leg.depositAddress);
  const payout = payoutFor(leg, plan, nonce);
  const typedData: PayoutTypedData = {
    domain: { ...escrowPayoutDomain, chainId, verifyingContract: escrow },
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

function payoutFor(leg: EscrowLeg, plan: SettlementPlan, nonce: bigint): Payout {
  if (plan.outcome === 'travel') {
    const [transfer, ...others] = plan.transfers;
    if (!transfer || others.length > 0 || transfer.kind !== 'travel' || transfer.amount <= 0n) {
      throw new AppError(
        'VALIDATION_FAILED',
        'A travel payout pays exactly one provider an amount above zero',
        {
          issues: [{ path: '/plan/transfers', message: 'one travel transfer above zero expected' }],
        },
      );
    }
    return travelPayout(payeeAddress(transfer.to), transfer.amount, nonce);
  }
  if (plan.transfers.some((transfer) => transfer.kind === 'travel')) {
    throw new AppError('VALIDATION_FAILED', 'Only a travel payout pays travel', {
      issues: [{ path: '/plan/transfers', message: `a travel transfer in a ${plan.outcome} plan` }],
    });
  }
  if (plan.outcome === 'release') {
    const charge = plan.travelCharge;
    return {
      action: PayoutAction.Release,
      recipients: [getAddress(leg.receiverPayoutAddress)],
      amounts: charge > 0n ? [leg.requiredAmount, charge] : [leg.requiredAmount],
      nonce,
    };
  }
  if (plan.outcome === 'refund') return refundPayout(nonce);
  const amountOf = (kind: 'payout' | 'fee') =>
    plan.transfers
      .filter((transfer) => transfer.kind === kind)
      .reduce((sum, transfer) => sum + transfer.amount, 0n);
  const gross = amountOf('payout') + amountOf('fee');
  if (gross === 0n) return refundPayout(nonce);
  return splitPayout([{ recipient: getAddress(leg.receiverPayoutAddress), amount: gross }], nonce);
}

/** A travel provider's Ethereum address (EIP-55), refusing anything else with a 4xx. */
function payeeAddress(to: string): Address {
  if (!isAddress(to, { strict: false }) || BigInt(to) === 0n) {
    throw new AppError('VALIDATION_FAILED', `The travel payee ${to} is not an Ethereum address`, {
      issues: [{ path: '/plan/transfers/0/to', message: 'not an Ethereum address' }],
    });
  }
  return getAddress(to);
}
