import type { DealWithHistory, Dispute } from '@covenant/domain';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DisputeOutcome } from './dispute-outcome.js';

const deal = {
  asset_symbol: 'WBTC',
  asset_amount: '50000000',
  stable_symbol: 'USDC',
  stable_amount: '30000000000',
} as DealWithHistory;
const decided: Dispute = {
  id: 'dispute-1',
  deal_id: 'deal-1',
  status: 'decided',
  reason: 'The seller stopped answering after the terms were agreed.',
  opened_by: 'user-ada',
  status_before: 'terms_agreed',
  mediator_id: 'user-mediator',
  evidence: [],
  decision: 'release',
  amounts: null,
  effect: 'deal_cancelled',
  rationale: 'Both parties agreed to stop before funding.',
  decided_by: 'user-mediator',
  decided_at: '2026-03-07T10:00:00.000Z',
  created_at: '2026-03-06T10:00:00.000Z',
};
const cancelled =
  'The decision cancelled the deal: it was disputed before its escrow opened, so nothing was deposited and no money moved.';

describe('DisputeOutcome', () => {
  it('tells the parties that a decision before the escrow opened cancelled the deal, with no amounts', () => {
    render(<DisputeOutcome deal={deal} dispute={decided} />);
    expect(screen.getByText(cancelled)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows the amounts per leg of a decision carried out on the escrow, and no cancellation', () => {
    render(
      <DisputeOutcome
        deal={deal}
        dispute={{
          ...decided,
          status_before: 'escrow_funded',
          effect: 'escrow_payout',
          amounts: {
            asset: { buyer: '50000000', seller: '0' },
            stable: { buyer: '0', seller: '30000000000' },
          },
        }}
      />,
    );
    expect(screen.getByRole('table', { name: 'Amounts per leg' })).toBeInTheDocument();
    expect(screen.queryByText(cancelled)).not.toBeInTheDocument();
  });
});
