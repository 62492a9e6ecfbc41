import { AppError } from '@covenant/domain';
import { describe, expect, it } from 'vitest';
import type { DepositOutput } from './escrow-chain-adapter.js';
import { choosePayoutInputs } from './payout-inputs.js';

const output = (txRef: string, position: number, amount: bigint): DepositOutput => ({
  txRef,
  position,
  amount,
});
const refs = (chosen: readonly DepositOutput[]) => chosen.map((entry) => `${entry.txRef}:${entry.position}`);

describe('choosePayoutInputs', () => {
  const deposits = [
    output('aa', 0, 1_000_000n),
    output('bb', 1, 50_000_000n),
    output('cc', 0, 25_000_000n),
    output('dd', 2, 30_000_000n),
    output('ee', 0, 1_000_000n),
  ];

  it('spends every output while they fit, in the order given', () => {
    expect(choosePayoutInputs(deposits, 5, 100_000_000n)).toBe(deposits);
    expect(choosePayoutInputs(deposits.slice(0, 2), 3, 0n)).toEqual(deposits.slice(0, 2));
  });

  it('over the cap, spends the largest outputs, as few as pay what is needed', () => {
    // 50_000_000 + 30_000_000 + 25_000_000 = 105_000_000 ≥ 100_000_000: three inputs.
    expect(refs(choosePayoutInputs(deposits, 3, 100_000_000n))).toEqual(['bb:1', 'dd:2', 'cc:0']);
    // 50_000_000 + 30_000_000 = 80_000_000 ≥ 60_000_000: two are enough, though three would fit.
    expect(refs(choosePayoutInputs(deposits, 3, 60_000_000n))).toEqual(['bb:1', 'dd:2']);
  });

  it('over the cap, a refund takes the largest outputs the cap allows; equal amounts by transaction', () => {
    expect(refs(choosePayoutInputs(deposits, 4, 0n))).toEqual(['bb:1', 'dd:2', 'cc:0', 'aa:0']);
  });

  it('refuses a payout the largest outputs under the cap cannot cover', () => {
    // The two largest hold 80_000_000, short of 100_000_000.
    let refused: unknown;
    try {
      choosePayoutInputs(deposits, 2, 100_000_000n);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { required: '100000000', available: '80000000', max_inputs: 2 },
    });
    expect(() => choosePayoutInputs(deposits, 0, 0n)).toThrow('at least one input');
  });
});
