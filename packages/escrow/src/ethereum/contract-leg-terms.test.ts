import { ETH_TOKEN } from '@covenant/contracts';
import { AppError } from '@covenant/domain';
import { describe, expect, it } from 'vitest';
import type { LegTerms } from '../chain-adapter.js';
import { contractLegTerms, dealIdBytes32 } from './contract-leg-terms.js';

// Lower-case addresses, so the test sees them checksummed.
const address = (digit: string): `0x${string}` => `0x${digit.repeat(40)}`;
const terms: LegTerms = {
  dealId: '0b5e3f2a-9c1d-4e8f-a7b6-123456789abc',
  leg: 'stable',
  chain: 'ETH',
  symbol: 'USDC',
  tokenAddress: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  requiredAmount: 1_000_000_000n,
  depositorRefundAddress: address('a'),
  receiverPayoutAddress: address('b'),
  deadline: new Date('2026-12-01T00:00:00Z'),
  refundAfter: new Date('2026-12-08T00:00:00.999Z'),
  signers: { buyer: address('c'), seller: address('d'), platform: address('e') },
};

describe('contractLegTerms', () => {
  it('maps an engine leg to the escrow contract terms field by field', () => {
    expect(contractLegTerms(terms, `0x${'f'.repeat(40)}`)).toEqual({
      dealId: '0x000000000000000000000000000000000b5e3f2a9c1d4e8fa7b6123456789abc',
      leg: 1,
      token: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      amount: 1_000_000_000n,
      depositor: '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa',
      receiver: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB',
      feeRecipient: '0xFFfFfFffFFfffFFfFFfFFFFFffFFFffffFfFFFfF',
      // 2026-12-08T00:00:00Z = 1_796_688_000 s; the 999 ms are dropped.
      deadline: 1_796_688_000n,
      buyer: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
      seller: '0xDDdDddDdDdddDDddDDddDDDDdDdDDdDDdDDDDDDd',
      platform: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
    });
  });

  it('puts ETH at the zero token and the asset leg at 0', () => {
    const mapped = contractLegTerms(
      { ...terms, leg: 'asset', symbol: 'ETH', tokenAddress: null },
      address('f'),
    );
    expect(mapped.token).toBe(ETH_TOKEN);
    expect(mapped.leg).toBe(0);
  });

  it('refuses a leg without a refund-after time and a deal id that is not hex', () => {
    expect(() => contractLegTerms({ ...terms, refundAfter: null }, address('f'))).toThrow(AppError);
    expect(() => dealIdBytes32('deal-1')).toThrow(/UUID/);
  });
});
