import { describe, expect, it } from 'vitest';
import { nextDealStatus } from '../deals/deal-transitions.js';
import { disputeDecisions } from './dispute.js';
import { disputeResolution } from './dispute-resolution.js';

describe('disputeResolution', () => {
  it('carries each decision out on an opened escrow: release and split complete, refund cancels', () => {
    const moved = Object.fromEntries(
      disputeDecisions.map((decision) => {
        const { action, effect } = disputeResolution(decision, true);
        return [decision, [nextDealStatus('disputed', action, 'mediator'), effect]];
      }),
    );
    expect(moved).toEqual({
      release: ['completed', 'escrow_payout'],
      refund: ['cancelled', 'escrow_payout'],
      split: ['completed', 'escrow_payout'],
    });
  });

  it('cancels a deal whose escrow never opened, whatever was decided, and moves no money', () => {
    for (const decision of disputeDecisions) {
      const { action, effect } = disputeResolution(decision, false);
      expect([decision, nextDealStatus('disputed', action, 'mediator'), effect]).toEqual([
        decision,
        'cancelled',
        'deal_cancelled',
      ]);
    }
  });
});
