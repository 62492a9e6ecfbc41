import { type LegTerms as EscrowContractTerms, ETH_TOKEN } from '@covenant/contracts';
import { AppError } from '@covenant/domain';
import { type Address, getAddress, type Hex, pad } from 'viem';
import type { LegTerms } from '../chain-adapter.js';

const legIndex = { asset: 0, stable: 1 } as const;

/**
 * The escrow contract's terms for an engine leg. The escrow's CREATE2 address commits to every
 * field, so this mapping is fixed: changing any detail (the dealId's padding, an address's case
 * normalisation, the deadline's rounding) would move every deposit address the platform has shown.
 */
export function contractLegTerms(terms: LegTerms, feeAddress: Address): EscrowContractTerms {
  if (terms.refundAfter === null) {
    throw new AppError('VALIDATION_FAILED', 'An Ethereum escrow needs a refund-after time', {
      issues: [{ path: '/refundAfter', message: 'required on Ethereum' }],
    });
  }
  return {
    dealId: dealIdBytes32(terms.dealId),
    leg: legIndex[terms.leg],
    token: getAddress(terms.tokenAddress ?? ETH_TOKEN),
    amount: terms.requiredAmount,
    depositor: getAddress(terms.depositorRefundAddress),
    receiver: getAddress(terms.receiverPayoutAddress),
    feeRecipient: getAddress(feeAddress),
    deadline: BigInt(Math.floor(terms.refundAfter.getTime() / 1000)),
    buyer: getAddress(terms.signers.buyer),
    seller: getAddress(terms.signers.seller),
    platform: getAddress(terms.signers.platform),
  };
}

/** The deal's UUID as the contract's `bytes32 dealId`: its 16 bytes of hex, left-padded with zeros. */
export function dealIdBytes32(dealId: string): Hex {
  const hex = dealId.replaceAll('-', '');
  if (!/^[0-9a-fA-F]{1,64}$/.test(hex)) {
    throw new AppError('VALIDATION_FAILED', 'A deal id must be a UUID', {
      issues: [{ path: '/dealId', message: 'not a UUID', actual: dealId }],
    });
  }
  return pad(`0x${hex}`, { size: 32 });
}
