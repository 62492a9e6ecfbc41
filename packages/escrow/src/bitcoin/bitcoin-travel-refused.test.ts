import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { planSettlement, planTravelPayout } from '../settlement-plan.js';
import { BITCOIN_CORE_REGTEST } from './bitcoin-network.js';
import { buildBitcoinPayout } from './build-bitcoin-payout.js';
import { multisigCustody } from './multisig-custody.js';

const publicKey = () => hex.encode(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true));

describe('a Bitcoin payout and travel', () => {
  // Travel is paid out of an Ethereum stable leg only: a Bitcoin payout spends every deposit.
  const custody = multisigCustody(
    { buyer: publicKey(), seller: publicKey(), platform: publicKey() },
    BITCOIN_CORE_REGTEST,
  );
  const leg = {
    escrowId: 'escrow-1',
    leg: 'asset' as const,
    chain: 'BTC' as const,
    requiredAmount: 100_000_000n,
    receiverPayoutAddress: custody.address,
    depositorRefundAddress: custody.address,
  };
  const deposits = [{ txRef: 'ab'.repeat(32), position: 0, amount: 100_000_000n }];
  const input = {
    leg,
    deposits,
    custody,
    feeRate: 2n,
    dustLimit: () => 546n,
    addressFormat: BITCOIN_CORE_REGTEST,
  };

  it('refuses a travel plan, and a settlement plan carrying a travel transfer', () => {
    const travel = planTravelPayout(leg, custody.address, 1_000n);
    expect(() => buildBitcoinPayout({ ...input, plan: travel })).toThrow(
      'A Bitcoin leg has no travel payout',
    );
    const release = planSettlement(leg, 100_000_000n, { kind: 'release' }, custody.address);
    const smuggled = {
      ...release,
      transfers: [...release.transfers, { kind: 'travel' as const, to: custody.address, amount: 1n }],
    };
    expect(() => buildBitcoinPayout({ ...input, plan: smuggled })).toThrow(
      'A Bitcoin leg has no travel payout',
    );
    // The same release without it builds.
    expect(buildBitcoinPayout({ ...input, plan: release }).chain).toBe('BTC');
  });
});
