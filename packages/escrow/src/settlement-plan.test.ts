import { AppError } from '@covenant/domain';
import { describe, expect, it } from 'vitest';
import {
  type MediatorInstruction,
  mediatorOutcome,
  type PlannedLeg,
  planSettlement,
} from './settlement-plan.js';

const feeAddress = '0xFee0000000000000000000000000000000000001';

// The stable leg of a deal: the buyer deposits 60 000 USDT (60 000 000 000 micro-USDT) for the seller.
const stableLeg: PlannedLeg = {
  escrowId: 'escrow-1',
  leg: 'stable',
  chain: 'ETH',
  requiredAmount: 60_000_000_000n,
  receiverPayoutAddress: '0xSe11e7000000000000000000000000000000Pay0',
  depositorRefundAddress: '0xB0yer000000000000000000000000000000Ref0',
};

// The asset leg: the seller deposits 1 BTC (100 000 000 sat) for the buyer.
const assetLeg: PlannedLeg = {
  escrowId: 'escrow-1',
  leg: 'asset',
  chain: 'BTC',
  requiredAmount: 100_000_000n,
  receiverPayoutAddress: 'bcrt1qbuyerpayout',
  depositorRefundAddress: 'bcrt1qsellerrefund',
};

describe('planSettlement', () => {
  it('releases an exact deposit: the receiver gets the amount less 1 bp, the fee address the 1 bp', () => {
    // fee = 60 000 000 000 / 10 000 = 6 000 000; receiver = 60 000 000 000 − 6 000 000 = 59 994 000 000
    expect(planSettlement(stableLeg, 60_000_000_000n, { kind: 'release' }, feeAddress)).toEqual({
      escrowId: 'escrow-1',
      leg: 'stable',
      outcome: 'release',
      transfers: [
        { kind: 'payout', to: stableLeg.receiverPayoutAddress, amount: 59_994_000_000n },
        { kind: 'fee', to: feeAddress, amount: 6_000_000n },
      ],
      travelCharge: 0n,
    });
  });

  it('returns an overpayment to the depositor and charges no fee on it', () => {
    // received 100 050 000 sat for 100 000 000 required: excess 50 000 back to the seller;
    // fee = 100 000 000 / 10 000 = 10 000 (not 10 005); buyer gets 100 000 000 − 10 000 = 99 990 000;
    // 99 990 000 + 10 000 + 50 000 = 100 050 000, all of it
    const plan = planSettlement(assetLeg, 100_050_000n, { kind: 'release' }, 'bcrt1qfee');
    expect(plan.transfers).toEqual([
      { kind: 'payout', to: 'bcrt1qbuyerpayout', amount: 99_990_000n },
      { kind: 'fee', to: 'bcrt1qfee', amount: 10_000n },
      { kind: 'refund', to: 'bcrt1qsellerrefund', amount: 50_000n },
    ]);
  });

  it('leaves out a fee of zero on a leg under 10 000 base units', () => {
    // 9 999 / 10 000 rounds down to 0: the receiver gets all 9 999
    const plan = planSettlement(
      { ...stableLeg, requiredAmount: 9_999n },
      9_999n,
      { kind: 'release' },
      feeAddress,
    );
    expect(plan.transfers).toEqual([{ kind: 'payout', to: stableLeg.receiverPayoutAddress, amount: 9_999n }]);
  });

  it('refuses to release a short leg with the amounts and the chain', () => {
    let thrown: unknown;
    try {
      // one micro-USDT short: 59 999 999 999 < 60 000 000 000
      planSettlement(stableLeg, 59_999_999_999n, { kind: 'release' }, feeAddress);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { required: '60000000000', available: '59999999999', chain: 'ETH' },
    });
  });

  it('refunds everything received to the depositor, with no fee', () => {
    // a partial deposit of 25 000 000 000 at the deadline goes back whole
    expect(planSettlement(stableLeg, 25_000_000_000n, { kind: 'refund' }, feeAddress)).toEqual({
      escrowId: 'escrow-1',
      leg: 'stable',
      outcome: 'refund',
      transfers: [{ kind: 'refund', to: stableLeg.depositorRefundAddress, amount: 25_000_000_000n }],
      travelCharge: 0n,
    });
  });

  it('refunds an over-funded leg whole, excess included', () => {
    // 60 000 000 000 + 1 = 60 000 000 001 back to the buyer
    const plan = planSettlement(stableLeg, 60_000_000_001n, { kind: 'refund' }, feeAddress);
    expect(plan.transfers).toEqual([
      { kind: 'refund', to: stableLeg.depositorRefundAddress, amount: 60_000_000_001n },
    ]);
  });

  it('plans nothing to refund for a leg nobody funded', () => {
    expect(planSettlement(stableLeg, 0n, { kind: 'refund' }, feeAddress).transfers).toEqual([]);
  });

  it('splits per the mediator: the fee is 1 bp of the receiver share, the depositor share comes back whole', () => {
    // 60 000 000 000 = 40 000 000 000 to the seller (receiver) + 20 000 000 000 back to the buyer;
    // fee = 40 000 000 000 / 10 000 = 4 000 000; seller gets 40 000 000 000 − 4 000 000 = 39 996 000 000;
    // buyer gets 20 000 000 000 + excess (60 000 000 500 − 60 000 000 000 = 500) = 20 000 000 500;
    // 39 996 000 000 + 4 000 000 + 20 000 000 500 = 60 000 000 500, all of it
    const plan = planSettlement(
      stableLeg,
      60_000_000_500n,
      { kind: 'split', toReceiver: 40_000_000_000n, toDepositor: 20_000_000_000n },
      feeAddress,
    );
    expect(plan).toEqual({
      escrowId: 'escrow-1',
      leg: 'stable',
      outcome: 'split',
      transfers: [
        { kind: 'payout', to: stableLeg.receiverPayoutAddress, amount: 39_996_000_000n },
        { kind: 'fee', to: feeAddress, amount: 4_000_000n },
        { kind: 'refund', to: stableLeg.depositorRefundAddress, amount: 20_000_000_500n },
      ],
      travelCharge: 0n,
    });
  });

  it('treats a split giving the receiver nothing as a refund without a fee', () => {
    const plan = planSettlement(
      assetLeg,
      100_000_000n,
      { kind: 'split', toReceiver: 0n, toDepositor: 100_000_000n },
      'bcrt1qfee',
    );
    expect(plan.transfers).toEqual([{ kind: 'refund', to: 'bcrt1qsellerrefund', amount: 100_000_000n }]);
  });

  it('refuses a split that does not add up to the leg', () => {
    // 50 000 000 + 50 000 001 = 100 000 001 ≠ 100 000 000
    expect(() =>
      planSettlement(
        assetLeg,
        100_000_000n,
        { kind: 'split', toReceiver: 50_000_000n, toDepositor: 50_000_001n },
        'bcrt1qfee',
      ),
    ).toThrow("A split must add up exactly to the leg's amount");
  });

  it('refuses a split with a negative share even when the sum is right', () => {
    // 100 000 001 + (−1) = 100 000 000, but nobody can receive −1
    expect(() =>
      planSettlement(
        assetLeg,
        100_000_000n,
        { kind: 'split', toReceiver: 100_000_001n, toDepositor: -1n },
        'bcrt1qfee',
      ),
    ).toThrow(AppError);
  });
});

describe('planSettlement over random legs', () => {
  it('always sends out exactly what the escrow holds, with the fee 1 bp of the receiver share', () => {
    const random = seededBigints(0xe5c2_0a11n);
    for (let i = 0; i < 3_000; i += 1) {
      // required up to 10^24 (1 000 000 ETH in wei), excess up to 10^6, a split anywhere in between
      const required = ((random() * random()) % 10n ** 24n) + 1n;
      const received = required + (random() % 3n === 0n ? random() % 1_000_000n : 0n);
      const toReceiver = random() % (required + 1n);
      const outcomes = [
        { kind: 'release' } as const,
        { kind: 'refund' } as const,
        { kind: 'split', toReceiver, toDepositor: required - toReceiver } as const,
      ];
      for (const outcome of outcomes) {
        const plan = planSettlement(
          { ...stableLeg, requiredAmount: required },
          received,
          outcome,
          feeAddress,
        );
        const sent = plan.transfers.reduce((sum, transfer) => sum + transfer.amount, 0n);
        expect(sent, `${outcome.kind} of ${required} holding ${received}`).toBe(received);
        const fee = plan.transfers.find((transfer) => transfer.kind === 'fee')?.amount ?? 0n;
        const traded = outcome.kind === 'release' ? required : outcome.kind === 'refund' ? 0n : toReceiver;
        expect(fee * 10_000n <= traded && traded < (fee + 1n) * 10_000n).toBe(true);
      }
    }
  });
});

describe('mediatorOutcome', () => {
  // The payload decide-dispute writes: 1 BTC against 60 000 USDT, split 0.25 / 0.75 and 45 000 / 15 000.
  const instruction: MediatorInstruction = {
    dispute_id: 'dispute-1',
    decision: 'split',
    buyer_id: 'buyer-1',
    seller_id: 'seller-1',
    legs: {
      asset: {
        chain: 'BTC',
        symbol: 'BTC',
        amount: '100000000',
        deposited_by: 'seller',
        to_buyer: '25000000',
        to_seller: '75000000',
        buyer_address: 'bcrt1qbuyerpayout',
        seller_address: 'bcrt1qsellerrefund',
      },
      stable: {
        chain: 'ETH',
        symbol: 'USDT',
        amount: '60000000000',
        deposited_by: 'buyer',
        to_buyer: '15000000000',
        to_seller: '45000000000',
        buyer_address: stableLeg.depositorRefundAddress,
        seller_address: stableLeg.receiverPayoutAddress,
      },
    },
  };

  it('gives the asset leg’s receiver (the buyer) to_buyer and its depositor (the seller) to_seller', () => {
    expect(mediatorOutcome(instruction, 'asset')).toEqual({
      kind: 'split',
      toReceiver: 25_000_000n,
      toDepositor: 75_000_000n,
    });
  });

  it('gives the stable leg’s receiver (the seller) to_seller and its depositor (the buyer) to_buyer', () => {
    expect(mediatorOutcome(instruction, 'stable')).toEqual({
      kind: 'split',
      toReceiver: 45_000_000_000n,
      toDepositor: 15_000_000_000n,
    });
  });

  it('plans the decided split: 45 000 USDT less 4.5 USDT to the seller, 15 000 USDT back to the buyer', () => {
    // fee = 45 000 000 000 / 10 000 = 4 500 000; seller gets 45 000 000 000 − 4 500 000 = 44 995 500 000
    const plan = planSettlement(
      stableLeg,
      60_000_000_000n,
      mediatorOutcome(instruction, 'stable'),
      feeAddress,
    );
    expect(plan.transfers).toEqual([
      { kind: 'payout', to: stableLeg.receiverPayoutAddress, amount: 44_995_500_000n },
      { kind: 'fee', to: feeAddress, amount: 4_500_000n },
      { kind: 'refund', to: stableLeg.depositorRefundAddress, amount: 15_000_000_000n },
    ]);
  });

  it.each(['release', 'refund'] as const)('passes a %s decision through', (decision) => {
    expect(mediatorOutcome({ ...instruction, decision }, 'asset')).toEqual({ kind: decision });
  });
});

/** A reproducible stream of 64-bit bigints (SplitMix64), so a failing draw can be replayed. */
function seededBigints(seed: bigint): () => bigint {
  const mask = (1n << 64n) - 1n;
  let state = seed & mask;
  return () => {
    state = (state + 0x9e37_79b9_7f4a_7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58_476d_1ce4_e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d0_49bb_1331_11ebn) & mask;
    return z ^ (z >> 31n);
  };
}
