import { describe, expect, it } from 'vitest';
import type { Profile } from '../api/get-profile.js';
import { checkTradeDraft } from './check-trade-draft.js';
import { emptyTradeDraft, type TradeDraft } from './trade-draft.js';

const profile: Profile = {
  id: 'user-ada',
  email: 'ada@example.com',
  username: 'ada',
  first_name: null,
  last_name: null,
  verification_status: 'verified',
  trading_tier: 'basic',
  kyc_completed: true,
  tier_limit_usd: '10000',
  roles: [],
  matching_opt_out: false,
};

// On Bitcoin (8 decimals): the checks do not depend on which chains the server lists.
const complete: TradeDraft = {
  ...emptyTradeDraft,
  assetChain: 'BTC',
  assetSymbol: 'BTC',
  assetAmount: '0.5',
  stableAmount: '10000',
  partnerId: 'user-grace',
};

const failureOf = (draft: TradeDraft, who: Profile | null = profile) => {
  const check = checkTradeDraft(draft, who);
  return check.ok ? null : [check.title, check.message];
};

describe('checkTradeDraft', () => {
  it('reports only the first failing check, in the spec order', () => {
    const nothing = { ...emptyTradeDraft, assetAmount: '-1', stableAmount: '2000000' };
    expect(failureOf(nothing, null)).toEqual(['Authentication Required', 'Please sign in to create trades.']);
    expect(failureOf(nothing, { ...profile, kyc_completed: false })).toEqual([
      'KYC Required',
      'Please complete KYC verification before trading.',
    ]);
    expect(failureOf(nothing)).toEqual(['Select Partner', 'Please select a trading partner.']);
    expect(failureOf({ ...nothing, partnerId: 'p' })).toEqual([
      'Invalid Amount',
      'Asset amount must be a positive number.',
    ]);
    expect(failureOf({ ...nothing, partnerId: 'p', assetAmount: '1', stableAmount: '0' })).toEqual([
      'Invalid Amount',
      'Stable amount must be a positive number.',
    ]);
    expect(failureOf({ ...nothing, partnerId: 'p', assetAmount: '1' })).toEqual([
      'Amount Too Large',
      'Trade amounts exceed maximum limits.',
    ]);
  });

  it.each(['', 'abc', '1.2.3', '-0.5', '+1', '1e', '0', '0.00000000', '0e5', '0.000000000'])(
    'refuses the asset amount %j as not a positive number',
    (assetAmount) => {
      expect(failureOf({ ...complete, assetAmount })).toEqual([
        'Invalid Amount',
        'Asset amount must be a positive number.',
      ]);
    },
  );

  it('says how many decimals a token has when an amount is typed finer than its base unit', () => {
    expect(failureOf({ ...complete, assetAmount: '0.000000001' })).toEqual([
      'Invalid Amount',
      'Asset amount can have at most 8 decimals.',
    ]);
    expect(failureOf({ ...complete, stableAmount: '9999.9999999' })).toEqual([
      'Invalid Amount',
      'Stable amount can have at most 6 decimals.',
    ]);
    // Trailing zeros are not precision: 0.5000000000 BTC is 0.5 × 10^8 sat; 9999.990000000 USDC is
    // 9999.99 × 10^6 base units.
    const zeros = checkTradeDraft(
      { ...complete, assetAmount: '0.5000000000', stableAmount: '9999.990000000' },
      profile,
    );
    expect(zeros.ok && [zeros.input.asset_amount, zeros.input.stable_amount]).toEqual([
      '50000000',
      '9999990000',
    ]);
    // The spec's order holds: a missing partner is reported before an over-precise amount.
    expect(failureOf({ ...complete, partnerId: '', assetAmount: '0.000000001' })).toEqual([
      'Select Partner',
      'Please select a trading partner.',
    ]);
  });

  it('reads the exponent notation a number input lets people type, exactly', () => {
    const enhanced = { ...profile, trading_tier: 'institutional' as const, tier_limit_usd: '5000000' };
    expect(failureOf({ ...complete, assetAmount: '1e7' }, enhanced)).toEqual([
      'Amount Too Large',
      'Trade amounts exceed maximum limits.',
    ]);
    const small = checkTradeDraft({ ...complete, assetAmount: '2.5E-3', stableAmount: '1e4' }, profile);
    // 0.0025 BTC = 250000 sat; 10000 USDC = 10^4 × 10^6.
    expect(small.ok && [small.input.asset_amount, small.input.stable_amount]).toEqual([
      '250000',
      '10000000000',
    ]);
    expect(failureOf({ ...complete, assetAmount: '1e-9' })).toEqual([
      'Invalid Amount',
      'Asset amount can have at most 8 decimals.',
    ]);
  });

  it('holds the maximum of 1,000,000 to the last base unit', () => {
    const enhanced = { ...profile, trading_tier: 'institutional' as const, tier_limit_usd: '5000000' };
    expect(failureOf({ ...complete, assetAmount: '1000000' }, enhanced)).toBeNull();
    expect(failureOf({ ...complete, assetAmount: '1000000.00000001' }, enhanced)).toEqual([
      'Amount Too Large',
      'Trade amounts exceed maximum limits.',
    ]);
    expect(failureOf({ ...complete, stableAmount: '1000000.000001' }, enhanced)).toEqual([
      'Amount Too Large',
      'Trade amounts exceed maximum limits.',
    ]);
  });

  it('refuses a Bitcoin leg under 0.0001 BTC, the smallest deposit a payout can spend', () => {
    expect(failureOf({ ...complete, assetAmount: '0.0001' })).toBeNull();
    expect(failureOf({ ...complete, assetAmount: '0.00009999' })).toEqual([
      'Amount Too Small',
      'Asset amount must be at least 0.0001 BTC.',
    ]);
  });

  it('applies the tier limit to the stable leg, exactly', () => {
    expect(failureOf({ ...complete, stableAmount: '10000' })).toBeNull();
    expect(failureOf({ ...complete, stableAmount: '10000.000001' })).toEqual([
      'Tier Limit Exceeded',
      'This trade exceeds your Basic tier limit of $10,000 per transaction.',
    ]);
    expect(failureOf({ ...complete, stableAmount: '1' }, { ...profile, tier_limit_usd: null })).toEqual([
      'KYC Required',
      'Please complete KYC verification before trading.',
    ]);
  });

  it('turns a passing draft into the request, amounts in base units', () => {
    // 0.5 BTC = 0.5 × 10^8 sat; 10000 USDC = 10000 × 10^6; 0.1 SOL = 0.1 × 10^9 lamports.
    expect(
      checkTradeDraft(
        { ...complete, meeting: { ...emptyTradeDraft.meeting, location: 'ignored without a meeting' } },
        profile,
      ),
    ).toEqual({
      ok: true,
      input: {
        asset_chain: 'BTC',
        asset_symbol: 'BTC',
        asset_amount: '50000000',
        stable_chain: 'ETH',
        stable_symbol: 'USDC',
        stable_amount: '10000000000',
        counterparty_id: 'user-grace',
        meeting_required: false,
      },
    });
    const sol = checkTradeDraft(
      { ...complete, assetChain: 'SOL', assetSymbol: 'SOL', assetAmount: '0.1', stableChain: 'SOL' },
      profile,
    );
    expect(sol.ok && sol.input.asset_amount).toBe('100000000');
    const eth = checkTradeDraft(
      { ...complete, assetChain: 'ETH', assetSymbol: 'ETH', assetAmount: '1.000000000000000001' },
      profile,
    );
    expect(eth.ok && eth.input.asset_amount).toBe('1000000000000000001');
  });

  it('sends a required meeting whole, coordinates as typed strings, or says which detail is missing', () => {
    const meeting = {
      location: '  Hotel Baur au Lac, Zurich ',
      latitude: '47.366',
      longitude: '8.5392',
      startsOn: '2026-12-01',
      duration: '1-3',
      travelPaidBy: 'split',
    } as const;
    const passed = checkTradeDraft({ ...complete, meetingRequired: true, meeting }, profile);
    expect(passed.ok && passed.input).toMatchObject({
      meeting_required: true,
      travel_location: 'Hotel Baur au Lac, Zurich',
      meeting: {
        location: 'Hotel Baur au Lac, Zurich',
        latitude: '47.366',
        longitude: '8.5392',
        starts_on: '2026-12-01',
        duration: '1-3',
        travel_paid_by: 'split',
      },
    });
    const missing = checkTradeDraft(
      {
        ...complete,
        meetingRequired: true,
        meeting: { ...meeting, latitude: '91', longitude: '8.1234567', startsOn: '' },
      },
      profile,
    );
    expect(missing).toMatchObject({
      ok: false,
      title: 'Meeting Details',
      message: 'Latitude is a number from -90 to 90 with at most 6 decimals, e.g. 46.2075.',
      meetingErrors: {
        latitude: 'Latitude is a number from -90 to 90 with at most 6 decimals, e.g. 46.2075.',
        longitude: 'Longitude is a number from -180 to 180 with at most 6 decimals, e.g. 6.1432.',
        startsOn: 'Choose the first day of the meeting.',
      },
    });
  });
});
