import type { Deal, DealCis, DealCisEntry, MeetingViewBase } from '@covenant/domain';
import { describe, expect, it } from 'vitest';
import { dealProgress, dealStepsOf } from './deal-progress.js';

const buyerId = '00000000-0000-4000-8000-00000000000b';
const sellerId = '00000000-0000-4000-8000-00000000000c';

function deal(overrides: Partial<Deal> = {}): Deal {
  return {
    id: '00000000-0000-4000-8000-0000000000d1',
    buyer_id: buyerId,
    seller_id: sellerId,
    counterparty_id: sellerId,
    buyer: { id: buyerId, username: 'bea', trading_tier: 'enhanced' },
    seller: { id: sellerId, username: 'sam', trading_tier: 'enhanced' },
    asset_chain: 'ETH',
    asset_symbol: 'WBTC',
    asset_amount: '100000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDT',
    stable_amount: '60000000000',
    meeting_required: false,
    travel_location: null,
    meeting: null,
    status: 'draft',
    terms_version: 1,
    terms_proposed_by: buyerId,
    funding_deadline_hours: 24,
    accepted_terms_version: null,
    terms_hash: null,
    terms_agreed_at: null,
    addresses: { buyer: null, seller: null },
    created_at: '2026-11-21T10:00:00.000Z',
    updated_at: '2026-11-21T10:00:00.000Z',
    completed_at: null,
    ...overrides,
  };
}

function entry(status: DealCisEntry['status']): DealCisEntry {
  return {
    status,
    review_comment: null,
    reviewed_at: null,
    attached_at: '2026-11-21T10:00:00.000Z',
  } as DealCisEntry;
}

const addresses = { payout_address: 'a', refund_address: 'b' };

describe('dealProgress', () => {
  it('asks both sides for a CIS on a new draft, and the viewer to review the other one once attached', () => {
    const none: DealCis = { buyer: null, seller: null };
    expect(dealProgress(deal(), buyerId, none)).toMatchObject({
      step: 0,
      yourActions: ['Attach your Customer Information Sheet (CIS).'],
      // The server shows the other's sheet only once the viewer's is attached: its absence says nothing.
      waitingFor: null,
    });
    const buyerAttached: DealCis = { buyer: entry('pending'), seller: null };
    expect(dealProgress(deal(), buyerId, buyerAttached)).toMatchObject({
      yourActions: [],
      waitingFor: 'sam to attach their CIS.',
    });
    const sellerAttached: DealCis = { buyer: entry('pending'), seller: entry('pending') };
    expect(dealProgress(deal(), buyerId, sellerAttached)).toMatchObject({
      yourActions: ["Review sam's CIS: approve it or reject it."],
      waitingFor: 'sam to review your CIS.',
    });
    const rejected: DealCis = { buyer: entry('rejected'), seller: entry('approved') };
    expect(dealProgress(deal(), buyerId, rejected)).toMatchObject({
      yourActions: ['Your CIS was rejected: attach a corrected one.'],
      waitingFor: null,
    });
  });

  it('tells the proposer to wait and the other party to accept or counter, with addresses first', () => {
    const negotiating = deal({ status: 'cis_submitted', terms_version: 3, terms_proposed_by: sellerId });
    expect(dealProgress(negotiating, buyerId, undefined)).toMatchObject({
      step: 1,
      yourActions: ['Set your payout and refund addresses.', 'Accept terms version 3, or counter-propose.'],
      waitingFor: 'sam to set their addresses.',
    });
    const withAddresses = { ...negotiating, addresses: { buyer: addresses, seller: addresses } };
    expect(dealProgress(withAddresses, sellerId, undefined)).toMatchObject({
      yourActions: [],
      waitingFor: 'bea to accept terms version 3 or counter-propose.',
    });
  });

  it('names the funding deadline once agreed, and has no step for closed or disputed deals', () => {
    const agreed = deal({ status: 'terms_agreed', accepted_terms_version: 2, funding_deadline_hours: 48 });
    expect(dealProgress(agreed, sellerId, undefined)).toMatchObject({
      step: 2,
      headline: 'Terms agreed (version 2).',
      yourActions: ['Fund your leg of the escrow within 48 hours of the agreement.'],
    });
    expect(dealProgress(deal({ status: 'disputed' }), buyerId, undefined).step).toBeNull();
    expect(dealProgress(deal({ status: 'cancelled' }), buyerId, undefined)).toMatchObject({
      step: null,
      yourActions: [],
      waitingFor: null,
    });
  });

  it('puts a required meeting between funding and settling, until both checked in or both waived', () => {
    const funded = deal({ status: 'escrow_funded', meeting_required: true });
    expect(dealStepsOf(funded)).toEqual(['Exchange CIS', 'Agree terms', 'Fund escrow', 'Meet', 'Settle']);
    expect(dealStepsOf(deal())).toEqual(['Exchange CIS', 'Agree terms', 'Fund escrow', 'Settle']);
    const view: MeetingViewBase = {
      required: true,
      meeting: null,
      status: 'open',
      window: null,
      check_ins: [
        {
          party: 'buyer',
          at: '2026-12-01T10:00:00.000Z',
          method: 'code',
          within_radius: true,
          distance_meters: 5,
          position: null,
        },
      ],
      waived_by: [],
      settlement_waits: true,
      proposed_change: null,
    };
    expect(dealProgress(funded, sellerId, undefined, view)).toMatchObject({
      step: 3,
      yourActions: ["Check in at the meeting with bea's code, or waive the meeting."],
      waitingFor: null,
    });
    expect(dealProgress(funded, buyerId, undefined, view)).toMatchObject({
      step: 3,
      yourActions: [],
      waitingFor: 'sam to check in or waive the meeting.',
    });
    const met = { ...view, status: 'checked_in' as const, settlement_waits: false };
    expect(dealProgress(funded, buyerId, undefined, met)).toMatchObject({
      step: 4,
      yourActions: ['Confirm the settlement.'],
    });
  });
});
