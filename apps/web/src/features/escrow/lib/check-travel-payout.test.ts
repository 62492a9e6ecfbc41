import type { TypedDataJson } from '@covenant/domain';
import { describe, expect, it } from 'vitest';
import { checkTravelTypedData } from './check-travel-payout.js';

const escrow = '0x1111111111111111111111111111111111111111';
const payee = '0x2222222222222222222222222222222222222222';
const quote = { amount: '250000000', payee_address: payee };

function typed(message: Record<string, unknown> = {}, contract = escrow): TypedDataJson {
  return {
    domain: { name: 'CovenantEscrow', version: '1', chainId: 31337, verifyingContract: contract },
    types: {
      Payout: [
        { name: 'action', type: 'uint8' },
        { name: 'recipients', type: 'address[]' },
        { name: 'amounts', type: 'uint256[]' },
        { name: 'nonce', type: 'uint256' },
      ],
    },
    primaryType: 'Payout',
    message: { action: 3, recipients: [payee], amounts: ['250000000'], nonce: '0', ...message },
  } as TypedDataJson;
}

describe('checkTravelTypedData', () => {
  it('accepts the TRAVEL action paying the quote’s provider exactly', () => {
    expect(() =>
      checkTravelTypedData(typed(), quote, escrow.toUpperCase().replace('0X', '0x'), 31337),
    ).not.toThrow();
  });

  it('refuses a release, another payee, another amount or another escrow', () => {
    expect(() => checkTravelTypedData(typed({ action: 0 }), quote, escrow, 31337)).toThrow(
      'not a travel payment',
    );
    expect(() => checkTravelTypedData(typed({ recipients: [escrow] }), quote, escrow, 31337)).toThrow(
      'someone other than the quote’s provider',
    );
    expect(() =>
      checkTravelTypedData(typed({ recipients: [payee, payee], amounts: ['1', '1'] }), quote, escrow, 31337),
    ).toThrow('someone other than the quote’s provider');
    expect(() => checkTravelTypedData(typed({ amounts: ['250000001'] }), quote, escrow, 31337)).toThrow(
      'another amount than the quote',
    );
    expect(() => checkTravelTypedData(typed({}, payee), quote, escrow, 31337)).toThrow('another escrow');
  });

  it('refuses a travel payment bound to another chain id, or when the chain id is not known', () => {
    // Signed for chain 1, it could be replayed there against an escrow at the same address.
    expect(() => checkTravelTypedData(typed(), quote, escrow, 1)).toThrow(
      'The payout is for another Ethereum network than this deal’s, so it was not signed.',
    );
    expect(() => checkTravelTypedData(typed(), quote, escrow, undefined)).toThrow('another Ethereum network');
  });
});
