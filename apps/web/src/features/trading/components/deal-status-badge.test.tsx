import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DealStatusBadge, describeDealStatus } from './deal-status-badge.js';

describe('deal status badge', () => {
  it.each([
    ['draft', 'Draft', 'neutral'],
    ['cis_submitted', 'CIS Submitted', 'neutral'],
    ['terms_agreed', 'Terms Agreed', 'neutral'],
    ['escrow_funded', 'Escrow Funded', 'neutral'],
    ['completed', 'Completed', 'success'],
    ['cancelled', 'Cancelled', 'destructive'],
    ['disputed', 'Disputed', 'destructive'],
  ])('shows %s as %s in the %s style', (status, label, tone) => {
    expect(describeDealStatus(status)).toEqual({ label, tone });
    render(<DealStatusBadge status={status} />);
    expect(screen.getByText(label)).toHaveAttribute('data-tone', tone);
  });

  it.each(['settling', '', 'constructor', 'DRAFT'])('shows the unknown status %j as Draft', (status) => {
    expect(describeDealStatus(status)).toEqual({ label: 'Draft', tone: 'neutral' });
  });
});
