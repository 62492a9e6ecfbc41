import { describe, expect, it } from 'vitest';
import { describeDealEvent } from './describe-deal-event.js';

describe('describeDealEvent', () => {
  it('says what happened in plain language, with what the payload adds', () => {
    expect(describeDealEvent('terms_proposed', { version: 3 })?.title).toBe('New terms proposed (version 3)');
    expect(describeDealEvent('cis_rejected', { party: 'seller', comment: 'Wrong entity name' })?.body).toBe(
      'Your counterparty rejected your Customer Information Sheet: "Wrong entity name"',
    );
    expect(describeDealEvent('cancelled', { reason: 'Prices moved' })).toEqual({
      title: 'Deal cancelled',
      body: 'The deal was cancelled. Reason: Prices moved',
    });
    expect(
      describeDealEvent('dispute_decided', { decision: 'refund', rationale: 'No deposit arrived.' }),
    ).toEqual({
      title: 'Dispute decided',
      body: 'The mediator decided: refund both parties. No deposit arrived.',
    });
    expect(describeDealEvent('terms_accepted', { version: 2, terms_hash: 'ab' })?.title).toBe(
      'Terms accepted (version 2)',
    );
  });

  it('tells the other party about check-ins and waivers, and when the meeting stops holding settlement', () => {
    expect(describeDealEvent('meeting_checked_in', { party: 'buyer', both_checked_in: false })?.title).toBe(
      'Your counterparty checked in at the meeting',
    );
    expect(describeDealEvent('meeting_checked_in', { party: 'seller', both_checked_in: true })?.title).toBe(
      'Both parties checked in at the meeting',
    );
    expect(describeDealEvent('meeting_waived', { party: 'seller', both_waived: false })?.title).toBe(
      'Your counterparty waived the meeting',
    );
    expect(describeDealEvent('meeting_waived', { party: 'buyer', both_waived: true })?.body).toContain(
      'no longer waits for the meeting',
    );
  });

  it('tells the parties about travel for the meeting, step by step', () => {
    expect(describeDealEvent('travel_requested', { kind: 'hotel', traveller: 'seller' })).toEqual({
      title: 'Travel requested: a hotel',
      body: "Your counterparty asked the concierge for a hotel for the seller's trip to the meeting.",
    });
    expect(
      describeDealEvent('travel_quoted', {
        kind: 'flight',
        provider: 'Swiss',
        amount: '450500000',
        symbol: 'USDC',
      }),
    ).toEqual({
      title: 'Travel quoted: a flight',
      body: 'The concierge quoted a flight with Swiss for 450.5 USDC. Review the quote and approve it to have it paid from escrow.',
    });
    expect(describeDealEvent('travel_cancelled', { kind: 'ground' })).toEqual({
      title: 'Travel cancelled: ground transport',
      body: 'A request for ground transport was cancelled.',
    });
    expect(describeDealEvent('travel_cancelled', { kind: 'hotel', reason: 'deal_cancelled' })).toBeNull();
    expect(describeDealEvent('travel_booked', { kind: 'hotel' })?.title).toBe('Travel booked: a hotel');
    expect(describeDealEvent('travel_file_attached', { filename: 'x.pdf' })?.title).toBe(
      'Travel document attached',
    );
    expect(describeDealEvent('travel_approved', { both_approved: false })?.title).toBe(
      'Your counterparty approved a travel quote',
    );
    expect(describeDealEvent('travel_approved', { both_approved: true })?.title).toBe(
      'Travel quote approved by both parties',
    );
    expect(describeDealEvent('travel_paid', { item_id: 'x' })?.title).toBe('Travel paid from escrow');
    expect(describeDealEvent('meeting_change_proposed', { party: 'buyer' })?.title).toBe(
      'Change of the meeting proposed',
    );
    expect(describeDealEvent('meeting_changed', { party: 'seller' })?.title).toBe('Meeting changed');
    expect(describeDealEvent('travel_quoted', {})?.body).toBe(
      'The concierge quoted travel. Review the quote and approve it to have it paid from escrow.',
    );
  });

  it("tells the parties about the escrow's steps and deadlines in words, never by the event's name", () => {
    const events = [
      'escrow_opened',
      'escrow_funded',
      'escrow_settled',
      'escrow_refunded',
      'funding_deadline_passed',
      'settlement_window_passed',
      'settlement_window_closing',
      'funding_deadline_closing',
      'dispute_evidence_added',
      'foreign_deposit_returned',
      'foreign_deposit_held',
      'foreign_deposit_return_failed',
      'escrow_payout_rebuilt',
    ];
    for (const action of events) {
      const described = describeDealEvent(action, { escrow_id: 'x' });
      expect(described?.title).not.toContain(action);
      expect(described?.title).not.toMatch(/^Deal updated/);
    }
    expect(describeDealEvent('settlement_window_passed', {})).toEqual({
      title: 'Settlement window closed',
      body: 'The deal did not settle within its settlement window, so it was cancelled. Both deposits go back to their refund addresses.',
    });
    expect(
      describeDealEvent('foreign_deposit_return_failed', { leg: 'asset', symbol: 'USDC', amount: '4000000' }),
    ).toEqual({
      title: 'Wrong-token deposit return failed',
      body: 'A deposit of 4 USDC reached the asset leg’s escrow, which does not hold that token, and its return did not go through. It is still in the escrow and will be sent again; nothing else in the deal changes.',
    });
    expect(
      describeDealEvent('escrow_payout_rebuilt', {
        leg: 'asset',
        kind: 'release',
        reason: 'fee_below_minimum',
      }),
    ).toEqual({
      title: 'Approve the payout again',
      body: 'The asset leg’s payout could not be sent as approved: the Bitcoin network’s minimum fee rose above the fee it was built with. It was built again at the current fee, and nothing left the escrow. Approve it again in the deal room.',
    });
    expect(
      describeDealEvent('escrow_payout_rebuilt', {
        leg: 'stable',
        kind: 'refund',
        reason: 'balance_changed',
      }),
    ).toEqual({
      title: 'Approve the refund again',
      body: 'The stable leg’s refund could not be sent as approved: a deposit reached the leg after it was built. It was built again to pay out what the leg now holds, and nothing left the escrow. Approve it again in the deal room.',
    });
    expect(describeDealEvent('funding_deadline_passed', {})?.title).toBe('Funding deadline passed');
    expect(describeDealEvent('settlement_window_closing', { settle_by: '2026-12-02T01:00:30.000Z' })).toEqual(
      {
        title: 'Settlement window closing',
        body: 'The deal must start to settle by 2026-12-02 01:00 UTC. Approve your release in the deal room (after the meeting, if the terms require one); otherwise the deal is cancelled and both deposits are refunded.',
      },
    );
    expect(
      describeDealEvent('funding_deadline_closing', {
        funding_deadline: '2026-12-01T18:00:00.000Z',
        unfunded: ['stable'],
      }),
    ).toEqual({
      title: 'Funding deadline approaching',
      body: 'The escrow must be funded by 2026-12-01 18:00 UTC. Not funded yet: the stable leg (the buyer’s deposit). If it is not funded in time, the deal is cancelled and any deposit goes back to its refund address.',
    });
    expect(describeDealEvent('funding_deadline_closing', {})?.body).toBe(
      'The escrow’s funding deadline is near. If it is not funded in time, the deal is cancelled and any deposit goes back to its refund address.',
    );
    expect(describeDealEvent('settlement_window_closing', { settle_by: 'soon' })?.body).toMatch(
      /^The deal’s settlement window closes soon\./,
    );
  });

  it('needs none for a mediator taking the case, and has a generic line for anything new', () => {
    expect(describeDealEvent('dispute_assigned', { dispute_id: 'x' })).toBeNull();
    // Staff reads are in the parties' audit trail; no notification is sent for them (ADR 025).
    expect(describeDealEvent('staff_viewed', { via: 'deal' })).toBeNull();
    expect(describeDealEvent('escrow_address_rotated', {})).toEqual({
      title: 'Deal updated: escrow_address_rotated',
      body: 'Open the deal to see what changed.',
    });
  });

  it('reads without the optional payload fields', () => {
    expect(describeDealEvent('terms_proposed', {})?.title).toBe('New terms proposed');
    expect(describeDealEvent('cancelled', { reason: null })?.body).toBe('The deal was cancelled.');
  });
});
