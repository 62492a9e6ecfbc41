import type { TypedDataJson } from '@covenant/domain';
import { describe, expect, it } from 'vitest';
import { checkEthereumPayout, type EthereumPayoutExpectation } from './check-ethereum-payout.js';

const sellerPayout = '0x5e11000000000000000000000000000000000001';
const buyerRefund = '0xB0b0000000000000000000000000000000000002';
const escrow = '0x57AB1e00000000000000000000000000000000BB';
const fee = '0xFee0000000000000000000000000000000000000';
const attacker = '0xBad0000000000000000000000000000000000666';

// The stable leg: the buyer deposits 30,000 USDC (6 decimals) for the seller; fee floor(30e9 / 1e4) = 3,000,000.
function typed(message: Record<string, unknown>, domain: Record<string, unknown> = {}): TypedDataJson {
  return {
    domain: { name: 'CovenantEscrow', version: '1', chainId: 1, verifyingContract: escrow, ...domain },
    types: {
      Payout: [
        { name: 'action', type: 'uint8' },
        { name: 'recipients', type: 'address[]' },
        { name: 'amounts', type: 'uint256[]' },
        { name: 'nonce', type: 'uint256' },
      ],
    },
    primaryType: 'Payout',
    message: { nonce: '1', ...message },
  };
}

function expectation(
  kind: string,
  transfers: { kind: 'payout' | 'fee' | 'refund'; to: string; amount: string }[],
  changes: Partial<EthereumPayoutExpectation['deal']> = {},
): EthereumPayoutExpectation {
  return {
    deal: {
      addresses: {
        buyer: { payout_address: '0xB0b0000000000000000000000000000000000001', refund_address: buyerRefund },
        seller: {
          payout_address: sellerPayout,
          refund_address: '0x5e11000000000000000000000000000000000002',
        },
      },
      asset_amount: '50000000',
      stable_amount: '30000000000',
      history: [],
      ...changes,
    },
    leg: {
      leg: 'stable',
      chain: 'ETH',
      amount: '30000000000',
      deposit_address: escrow.toLowerCase(),
      payout: {
        kind: kind as 'release',
        source: 'settlement',
        status: 'collecting',
        transfers,
        approved_by: [],
        transaction_hash: null,
      },
    },
    chain: { chain_id: 1, fee_address: fee },
  };
}

describe('checkEthereumPayout', () => {
  // The hotel's 250 USDC was paid out of the leg, the seller bearing it (the history's travel_paid).
  const travelPaid = {
    seq: 7,
    action: 'travel_paid',
    actor_id: null,
    created_at: '2026-03-05T09:00:00.000Z',
    details: {
      item_id: 'item-1',
      amount: '250000000',
      receiver_share: '250000000',
      transaction_hash: '0xabc',
    },
  };

  it('accepts a release with the seller’s travel charge and shows what it pays', () => {
    // 30,000 USDC − 3 USDC fee − 250 USDC travel charge = 29,747 USDC to the seller.
    const shown = [
      { kind: 'payout' as const, to: sellerPayout, amount: '29747000000' },
      { kind: 'fee' as const, to: fee, amount: '3000000' },
    ];
    expect(
      checkEthereumPayout(
        typed({ action: 0, recipients: [sellerPayout], amounts: ['30000000000', '250000000'] }),
        expectation('release', shown, { history: [travelPaid] }),
      ),
    ).toEqual(shown);
  });

  it('refuses a travel charge other than the travel the deal’s history records as paid', () => {
    const release = (...amounts: string[]) =>
      typed({ action: 0, recipients: [sellerPayout], amounts: ['30000000000', ...amounts] });
    // No travel paid: no charge.
    expect(() => checkEthereumPayout(release('1'), expectation('release', []))).toThrow(
      'not the release of this leg',
    );
    // 250 USDC paid: a charge of 251, or none, is not it.
    for (const amounts of [['250000001'], []]) {
      expect(() =>
        checkEthereumPayout(release(...amounts), expectation('release', [], { history: [travelPaid] })),
      ).toThrow('not the release of this leg');
    }
  });

  it('checks the domain: name, version, chain id and escrow', () => {
    const release = { action: 0, recipients: [sellerPayout], amounts: ['30000000000'] };
    const shown = expectation('release', []);
    expect(() => checkEthereumPayout(typed(release, { chainId: 5 }), shown)).toThrow(
      'another Ethereum network',
    );
    expect(() => checkEthereumPayout(typed(release, { version: '2' }), shown)).toThrow(
      'Covenant escrow contract',
    );
    expect(() => checkEthereumPayout(typed(release, { verifyingContract: attacker }), shown)).toThrow(
      'another escrow than this leg’s',
    );
    expect(() => checkEthereumPayout(typed(release), { ...shown, chain: { fee_address: fee } })).toThrow(
      'another Ethereum network',
    );
  });

  it('refuses a split to anyone but the receiver, and one for another share than the mediator’s', () => {
    const decided = {
      seq: 3,
      action: 'dispute_decided',
      actor_id: null,
      created_at: '2026-03-05T10:00:00.000Z',
      details: {
        decision: 'split',
        amounts: {
          asset: { buyer: '0', seller: '50000000' },
          stable: { buyer: '10000000000', seller: '20000000000' },
        },
      },
    };
    // 20,000 USDC to the seller: fee 2 USDC, the buyer's 10,000 back.
    const shown = [
      { kind: 'payout' as const, to: sellerPayout, amount: '19998000000' },
      { kind: 'fee' as const, to: fee, amount: '2000000' },
      { kind: 'refund' as const, to: buyerRefund, amount: '10000000000' },
    ];
    const expected = expectation('split', shown, { history: [decided] });
    expect(
      checkEthereumPayout(
        typed({ action: 2, recipients: [sellerPayout], amounts: ['20000000000'] }),
        expected,
      ),
    ).toEqual(shown);
    expect(() =>
      checkEthereumPayout(typed({ action: 2, recipients: [attacker], amounts: ['20000000000'] }), expected),
    ).toThrow('not the mediator’s split');
    expect(() =>
      checkEthereumPayout(
        typed({ action: 2, recipients: [sellerPayout], amounts: ['30000000000'] }),
        expected,
      ),
    ).toThrow('not the mediator’s split');
    expect(() =>
      checkEthereumPayout(
        typed({ action: 2, recipients: [sellerPayout], amounts: ['20000000000'] }),
        expectation('split', shown),
      ),
    ).toThrow('knows of no mediator’s split');
  });

  it('refuses a refund shown to an address other than the depositor’s refund address', () => {
    const refund = typed({ action: 1, recipients: [], amounts: [] });
    expect(
      checkEthereumPayout(
        refund,
        expectation('refund', [{ kind: 'refund', to: buyerRefund, amount: '30000000000' }]),
      ),
    ).toEqual([{ kind: 'refund', to: buyerRefund, amount: '30000000000' }]);
    expect(() =>
      checkEthereumPayout(
        refund,
        expectation('refund', [{ kind: 'refund', to: attacker, amount: '30000000000' }]),
      ),
    ).toThrow('other than the depositor’s refund address');
    expect(() =>
      checkEthereumPayout(refund, expectation('refund', [{ kind: 'payout', to: sellerPayout, amount: '1' }])),
    ).toThrow('transfers shown are not the ones');
  });

  it('refuses a travel payout on the settlement screen', () => {
    expect(() =>
      checkEthereumPayout(
        typed({ action: 3, recipients: [attacker], amounts: ['1'] }),
        expectation('travel', []),
      ),
    ).toThrow('not a settlement or a refund');
  });
});
