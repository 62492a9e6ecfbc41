import { describe, expect, it } from 'vitest';
import { type NewTradeInput, validateCounterparty, validateNewTrade } from './validate-new-trade.js';

const valid: NewTradeInput = {
  profile: { kycCompleted: true, tradingTier: 'enhanced', tierLimitUsd: 100_000n },
  counterpartyId: '7f1c0d8e-2b0a-4f51-9a57-0d4b1f7d2f10',
  assetSymbol: 'BTC',
  assetAmount: 50_000_000n, // 0.5 BTC
  stableSymbol: 'USDC',
  stableAmount: 30_000_000_000n, // 30,000 USDC
};

describe('validateNewTrade', () => {
  it('accepts a valid trade', () => {
    expect(validateNewTrade(valid)).toBeNull();
  });

  it('checks in the spec’s order: each failure hides the later ones', () => {
    const allWrong: NewTradeInput = {
      profile: null,
      counterpartyId: null,
      assetSymbol: 'BTC',
      assetAmount: null,
      stableSymbol: 'USDC',
      stableAmount: 0n,
    };
    expect(validateNewTrade(allWrong)).toMatchObject({
      check: 'authentication',
      title: 'Authentication Required',
      message: 'Please sign in to create trades.',
      code: 'UNAUTHORIZED',
    });
    const noKyc = {
      ...allWrong,
      profile: { kycCompleted: false, tradingTier: 'basic', tierLimitUsd: 10_000n },
    };
    expect(validateNewTrade(noKyc as NewTradeInput)).toMatchObject({
      title: 'KYC Required',
      message: 'Please complete KYC verification before trading.',
      code: 'KYC_REQUIRED',
    });
    const noPartner = { ...allWrong, profile: valid.profile };
    expect(validateNewTrade(noPartner)).toMatchObject({
      title: 'Select Partner',
      message: 'Please select a trading partner.',
      code: 'VALIDATION_FAILED',
    });
    const noAsset = { ...noPartner, counterpartyId: valid.counterpartyId };
    expect(validateNewTrade(noAsset)).toMatchObject({
      title: 'Invalid Amount',
      message: 'Asset amount must be a positive number.',
      details: { fields: { asset_amount: 'must be a positive number' } },
    });
    const noStable = { ...noAsset, assetAmount: 1n };
    expect(validateNewTrade(noStable)).toMatchObject({
      title: 'Invalid Amount',
      message: 'Stable amount must be a positive number.',
    });
  });

  it('treats an institutional profile without a limit like one without KYC', () => {
    const profile = { kycCompleted: true, tradingTier: 'institutional' as const, tierLimitUsd: null };
    expect(validateNewTrade({ ...valid, profile })?.code).toBe('KYC_REQUIRED');
  });

  it('refuses an empty partner id as no partner', () => {
    expect(validateNewTrade({ ...valid, counterpartyId: '' })?.check).toBe('partner');
  });

  it.each([
    ['asset amount null (not a number)', { assetAmount: null }, 'asset_amount'],
    ['asset amount 0', { assetAmount: 0n }, 'asset_amount'],
    ['asset amount negative', { assetAmount: -1n }, 'asset_amount'],
    ['stable amount null', { stableAmount: null }, 'stable_amount'],
    ['stable amount negative', { stableAmount: -10_000n }, 'stable_amount'],
  ] as const)('%s fails the %s check', (_name, change, check) => {
    expect(validateNewTrade({ ...valid, ...change })?.check).toBe(check);
  });

  it('allows exactly 1,000,000 per side and refuses one base unit more', () => {
    const institutional = {
      kycCompleted: true,
      tradingTier: 'institutional' as const,
      tierLimitUsd: 10_000_000n,
    };
    // 1000000 BTC = 10^6 × 10^8 satoshi; 1000000 USDC = 10^6 × 10^6
    const atMax = {
      ...valid,
      profile: institutional,
      assetAmount: 100_000_000_000_000n,
      stableAmount: 1_000_000_000_000n,
    };
    expect(validateNewTrade(atMax)).toBeNull();
    // 1000000.00000001 BTC = 100000000000001 satoshi
    expect(validateNewTrade({ ...atMax, assetAmount: 100_000_000_000_001n })).toMatchObject({
      title: 'Amount Too Large',
      message: 'Trade amounts exceed maximum limits.',
      code: 'VALIDATION_FAILED',
      details: { fields: { asset_amount: 'exceeds 1000000' } },
    });
    // 1000000.000001 USDC = 1000000000001 base units
    expect(validateNewTrade({ ...atMax, stableAmount: 1_000_000_000_001n })).toMatchObject({
      check: 'amount_too_large',
      details: { fields: { stable_amount: 'exceeds 1000000' } },
    });
  });

  it('measures the maximum in the token’s own decimals', () => {
    // 1000000 ETH = 10^6 × 10^18 wei is allowed; a 30-digit wei amount (10^29 wei = 10^11 ETH) is not
    const institutional = {
      kycCompleted: true,
      tradingTier: 'institutional' as const,
      tierLimitUsd: 10_000_000n,
    };
    const eth = { ...valid, profile: institutional, assetSymbol: 'ETH' as const };
    expect(validateNewTrade({ ...eth, assetAmount: 1_000_000_000_000_000_000_000_000n })).toBeNull();
    expect(validateNewTrade({ ...eth, assetAmount: 10n ** 29n })?.check).toBe('amount_too_large');
  });

  it('enforces the tier limit on the stable leg with its details', () => {
    const basic = { kycCompleted: true, tradingTier: 'basic' as const, tierLimitUsd: 10_000n };
    // $10,000 = 10000 × 10^6 base units: at the limit
    expect(validateNewTrade({ ...valid, profile: basic, stableAmount: 10_000_000_000n })).toBeNull();
    // $10,000.01 = 10000010000 base units: over
    expect(validateNewTrade({ ...valid, profile: basic, stableAmount: 10_000_010_000n })).toEqual({
      check: 'tier_limit',
      title: 'Tier Limit Exceeded',
      message: 'This trade exceeds your Basic tier limit of $10,000 per transaction.',
      code: 'TIER_LIMIT_EXCEEDED',
      details: { tier: 'basic', limit_usd: '10000', value_usd: '10000.01' },
    });
  });

  it('refuses a Bitcoin leg below the smallest deposit a payout can spend, naming the minimum', () => {
    // 0.0001 BTC = 10,000 satoshi: the smallest counted deposit output, allowed
    expect(validateNewTrade({ ...valid, assetAmount: 10_000n })).toBeNull();
    // 9,999 satoshi: one under
    expect(validateNewTrade({ ...valid, assetAmount: 9_999n })).toEqual({
      check: 'amount_too_small',
      title: 'Amount Too Small',
      message: 'Asset amount must be at least 0.0001 BTC.',
      code: 'AMOUNT_BELOW_MINIMUM',
      details: { fields: { asset_amount: 'must be at least 0.0001 BTC' }, symbol: 'BTC', minimum: '10000' },
    });
    // WBTC lives on Ethereum, where one base unit can be paid out; so can one wei of ETH.
    expect(validateNewTrade({ ...valid, assetSymbol: 'WBTC', assetAmount: 1n })).toBeNull();
    expect(validateNewTrade({ ...valid, assetSymbol: 'ETH', assetAmount: 1n })).toBeNull();
  });

  it('checks the maximum before the tier limit', () => {
    const basic = { kycCompleted: true, tradingTier: 'basic' as const, tierLimitUsd: 10_000n };
    expect(validateNewTrade({ ...valid, profile: basic, stableAmount: 2_000_000_000_000n })?.check).toBe(
      'amount_too_large',
    );
  });
});

describe('validateCounterparty', () => {
  const basic = { kycCompleted: true, tierLimitUsd: 10_000n };

  it('holds the trade to the counterparty’s tier limit too, naming neither its tier nor its limit', () => {
    // $10,000 = 10000 × 10^6 USDC base units: at a Basic counterparty's limit
    expect(validateCounterparty(basic, 'USDC', 10_000_000_000n)).toBeNull();
    // $50,000 = 50000 × 10^6: over it
    expect(validateCounterparty(basic, 'USDC', 50_000_000_000n)).toEqual({
      check: 'counterparty_tier_limit',
      title: 'Tier Limit Exceeded',
      message: 'This trade exceeds your counterparty’s tier limit per transaction.',
      code: 'TIER_LIMIT_EXCEEDED',
      details: { party: 'counterparty', value_usd: '50000' },
    });
  });

  it('refuses a counterparty without KYC, or without a known limit, whatever the amount', () => {
    for (const counterparty of [
      null,
      { kycCompleted: false, tierLimitUsd: 100_000n },
      { kycCompleted: true, tierLimitUsd: null },
    ]) {
      expect(validateCounterparty(counterparty, 'USDT', 1n)).toMatchObject({
        check: 'counterparty_kyc',
        code: 'KYC_REQUIRED',
        details: { party: 'counterparty' },
      });
    }
  });
});
