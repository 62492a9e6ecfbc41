import { AppError, travelReceiverShare } from '@covenant/domain';
import { describe, expect, it } from 'vitest';
import { type PlannedLeg, planSettlement, planTravelPayout } from './settlement-plan.js';

const feeAddress = '0xFee0000000000000000000000000000000000001';
const hotel = '0x4073100000000000000000000000000000000001';

// The worked example's stable leg: 100 000 USDC (6 decimals) = 100 000 000 000 units, deposited by
// the buyer for the seller. Fee = 100 000 000 000 / 10 000 = 10 000 000. Hotel T = 2 000 000 000.
const A = 100_000_000_000n;
const T = 2_000_000_000n;
const stableLeg: PlannedLeg = {
  escrowId: 'escrow-1',
  leg: 'stable',
  chain: 'ETH',
  requiredAmount: A,
  receiverPayoutAddress: '0xSe11e7000000000000000000000000000000Pay0',
  depositorRefundAddress: '0xB0yer000000000000000000000000000000Ref0',
};

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

describe('planTravelPayout', () => {
  it('pays exactly the amount to the payee, without fee or charge', () => {
    expect(planTravelPayout(stableLeg, hotel, T)).toEqual({
      escrowId: 'escrow-1',
      leg: 'stable',
      outcome: 'travel',
      transfers: [{ kind: 'travel', to: hotel, amount: T }],
      travelCharge: 0n,
    });
  });

  it('refuses nothing to pay, a negative amount and no payee', () => {
    for (const [payee, amount] of [
      [hotel, 0n],
      [hotel, -1n],
      ['', 1n],
      ['  ', 1n],
    ] as const) {
      expect(thrownBy(() => planTravelPayout(stableLeg, payee, amount))).toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    }
  });
});

describe('planSettlement after travel', () => {
  it('releases with the seller paying travel: the receiver is charged all of it, nothing comes back', () => {
    // D = A; travel T left A − T = 98 000 000 000. Charge = T.
    // Receiver A − fee − T = 100 000 000 000 − 10 000 000 − 2 000 000 000 = 97 990 000 000;
    // fee 10 000 000; depositor D − T − (A − T) = 0 (left out).
    const charged = travelReceiverShare(T, 'seller');
    expect(charged).toBe(T);
    expect(planSettlement(stableLeg, A, { kind: 'release' }, feeAddress, { paid: T, charged })).toEqual({
      escrowId: 'escrow-1',
      leg: 'stable',
      outcome: 'release',
      transfers: [
        { kind: 'payout', to: stableLeg.receiverPayoutAddress, amount: 97_990_000_000n },
        { kind: 'fee', to: feeAddress, amount: 10_000_000n },
      ],
      travelCharge: T,
    });
  });

  it('releases with the buyer paying travel: the buyer deposited A + T, the receiver gets A − fee', () => {
    // D = A + T = 102 000 000 000; charge 0. Receiver 100 000 000 000 − 10 000 000 = 99 990 000 000;
    // fee 10 000 000; depositor D − T − A = 0.
    const charged = travelReceiverShare(T, 'buyer');
    const plan = planSettlement(stableLeg, A + T, { kind: 'release' }, feeAddress, { paid: T, charged });
    expect(plan.transfers).toEqual([
      { kind: 'payout', to: stableLeg.receiverPayoutAddress, amount: 99_990_000_000n },
      { kind: 'fee', to: feeAddress, amount: 10_000_000n },
    ]);
    expect(plan.travelCharge).toBe(0n);
  });

  it('releases a split travel cost with an odd amount: the receiver bears the floor of half', () => {
    // T' = 2 000 000 001: receiver's share floor(T'/2) = 1 000 000 000, the buyer's 1 000 000 001.
    // D = A + 1 000 000 001 + 7 too many = 101 000 000 008; held D − T' = 99 000 000 007.
    // Receiver A − fee − 1 000 000 000 = 98 990 000 000; fee 10 000 000;
    // depositor 99 000 000 007 − (A − 1 000 000 000) = 7.
    const travel = 2_000_000_001n;
    const charged = travelReceiverShare(travel, 'split');
    expect(charged).toBe(1_000_000_000n);
    const plan = planSettlement(stableLeg, 101_000_000_008n, { kind: 'release' }, feeAddress, {
      paid: travel,
      charged,
    });
    expect(plan.transfers).toEqual([
      { kind: 'payout', to: stableLeg.receiverPayoutAddress, amount: 98_990_000_000n },
      { kind: 'fee', to: feeAddress, amount: 10_000_000n },
      { kind: 'refund', to: stableLeg.depositorRefundAddress, amount: 7n },
    ]);
    expect(plan.travelCharge).toBe(1_000_000_000n);
    // deposits = travel + payout + fee + refund: 2 000 000 001 + 98 990 000 000 + 10 000 000 + 7.
    const sent = plan.transfers.reduce((sum, transfer) => sum + transfer.amount, 0n);
    expect(travel + sent).toBe(101_000_000_008n);
  });

  it('refuses a release the leg can no longer pay after travel, through INSUFFICIENT_BALANCE', () => {
    // Buyer pays travel but deposited only A: held A − T = 98 000 000 000 < A − 0.
    const error = thrownBy(() =>
      planSettlement(stableLeg, A, { kind: 'release' }, feeAddress, { paid: T, charged: 0n }),
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { required: '100000000000', available: '98000000000', chain: 'ETH' },
    });
  });

  it('refuses a charge above the travel paid, above what the receiver gets, negative, or travel above the deposits', () => {
    const travels = [
      { paid: T, charged: T + 1n },
      { paid: -1n, charged: 0n },
      { paid: T, charged: -1n },
      { paid: A + 1n, charged: 0n },
    ];
    for (const travel of travels) {
      expect(
        thrownBy(() => planSettlement(stableLeg, A, { kind: 'release' }, feeAddress, travel)),
      ).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    // 10 000 units, fee 1: the receiver gets 9 999 at most, so a charge of 10 000 is refused.
    const small = { ...stableLeg, requiredAmount: 10_000n };
    expect(
      thrownBy(() =>
        planSettlement(small, 20_000n, { kind: 'release' }, feeAddress, { paid: 10_000n, charged: 10_000n }),
      ),
    ).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refunds what travel left to the depositor, without fee or charge', () => {
    // A − T = 98 000 000 000 back.
    const plan = planSettlement(stableLeg, A, { kind: 'refund' }, feeAddress, { paid: T, charged: T });
    expect(plan.transfers).toEqual([
      { kind: 'refund', to: stableLeg.depositorRefundAddress, amount: 98_000_000_000n },
    ]);
    expect(plan.travelCharge).toBe(0n);
  });

  it("splits after travel: the receiver's share as decided, the depositor's reduced by the travel", () => {
    // 60 000 / 40 000 USDC of A, 3 units too many deposited, T paid: held A + 3 − T = 98 000 000 003.
    // Receiver 60 000 000 000 − 6 000 000 = 59 994 000 000; fee 6 000 000;
    // depositor 98 000 000 003 − 60 000 000 000 = 38 000 000 003 (= 40 000 000 000 + 3 − T).
    const plan = planSettlement(
      stableLeg,
      A + 3n,
      { kind: 'split', toReceiver: 60_000_000_000n, toDepositor: 40_000_000_000n },
      feeAddress,
      { paid: T, charged: T },
    );
    expect(plan.transfers).toEqual([
      { kind: 'payout', to: stableLeg.receiverPayoutAddress, amount: 59_994_000_000n },
      { kind: 'fee', to: feeAddress, amount: 6_000_000n },
      { kind: 'refund', to: stableLeg.depositorRefundAddress, amount: 38_000_000_003n },
    ]);
    expect(plan.travelCharge).toBe(0n);
  });

  it("refuses a split whose receiver's share is more than travel left in the escrow", () => {
    // All of A to the receiver, but only A − T is left: it cannot be paid exactly.
    const error = thrownBy(() =>
      planSettlement(stableLeg, A, { kind: 'split', toReceiver: A, toDepositor: 0n }, feeAddress, {
        paid: T,
        charged: T,
      }),
    );
    expect(error).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { required: '100000000000', available: '98000000000', travel_paid: '2000000000' },
    });
  });

  it('always sends out exactly deposits − travel, over random legs and travel', () => {
    let seed = 0x7e4a_51n;
    const random = () => {
      seed = (seed * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) % 2n ** 64n;
      return seed;
    };
    for (let i = 0; i < 2_000; i += 1) {
      const required = (random() % 10n ** 18n) + 1n;
      const travel = random() % (required / 2n + 1n);
      const paidBy = (['buyer', 'seller', 'split'] as const)[Number(random() % 3n)]!;
      const charged = travelReceiverShare(travel, paidBy);
      const fee = required / 10_000n;
      if (charged > required - fee) continue;
      // The buyer deposits the amount plus its own part of travel, sometimes a little more.
      const received = required + travel - charged + (random() % 2n === 0n ? random() % 1_000n : 0n);
      const toReceiver =
        random() % (received - travel + 1n > required ? required + 1n : received - travel + 1n);
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
          {
            paid: travel,
            charged,
          },
        );
        const sent = plan.transfers.reduce((sum, transfer) => sum + transfer.amount, 0n);
        expect(travel + sent, `${outcome.kind} of ${required}, travel ${travel} by ${paidBy}`).toBe(received);
        if (outcome.kind === 'release') {
          const payout = plan.transfers.find((transfer) => transfer.kind === 'payout')?.amount ?? 0n;
          expect(payout).toBe(required - fee - charged);
        }
      }
    }
  });
});
