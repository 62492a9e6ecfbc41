import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { dealStatuses } from './deal.js';
import {
  type DealAction,
  type DealActor,
  dealActions,
  dealActors,
  nextDealStatus,
} from './deal-transitions.js';

/** The expected table, written out again by hand: status → action → actor → next status. */
const allowed: Record<string, string> = {
  'draft propose_terms buyer': 'draft',
  'draft propose_terms seller': 'draft',
  'cis_submitted propose_terms buyer': 'cis_submitted',
  'cis_submitted propose_terms seller': 'cis_submitted',
  'terms_agreed propose_terms buyer': 'cis_submitted',
  'terms_agreed propose_terms seller': 'cis_submitted',
  'draft set_addresses buyer': 'draft',
  'draft set_addresses seller': 'draft',
  'cis_submitted set_addresses buyer': 'cis_submitted',
  'cis_submitted set_addresses seller': 'cis_submitted',
  'terms_agreed set_addresses buyer': 'cis_submitted',
  'terms_agreed set_addresses seller': 'cis_submitted',
  'draft attach_cis buyer': 'draft',
  'draft attach_cis seller': 'draft',
  'draft review_cis buyer': 'draft',
  'draft review_cis seller': 'draft',
  'draft complete_cis_exchange buyer': 'cis_submitted',
  'draft complete_cis_exchange seller': 'cis_submitted',
  'cis_submitted accept_terms buyer': 'terms_agreed',
  'cis_submitted accept_terms seller': 'terms_agreed',
  'terms_agreed fund_escrow system': 'escrow_funded',
  'escrow_funded release system': 'completed',
  'draft cancel buyer': 'cancelled',
  'draft cancel seller': 'cancelled',
  'cis_submitted cancel buyer': 'cancelled',
  'cis_submitted cancel seller': 'cancelled',
  'terms_agreed cancel buyer': 'cancelled',
  'terms_agreed cancel seller': 'cancelled',
  'terms_agreed expire_funding system': 'cancelled',
  'escrow_funded expire_settlement system': 'cancelled',
  'terms_agreed open_dispute buyer': 'disputed',
  'terms_agreed open_dispute seller': 'disputed',
  'escrow_funded open_dispute buyer': 'disputed',
  'escrow_funded open_dispute seller': 'disputed',
  'disputed resolve_release mediator': 'completed',
  'disputed resolve_refund mediator': 'cancelled',
  'disputed resolve_split mediator': 'completed',
};

const closedToTerms = new Set(['escrow_funded', 'completed', 'cancelled', 'disputed']);

const cases = dealStatuses.flatMap((status) =>
  dealActions.flatMap((action) => dealActors.map((actor) => [status, action, actor] as const)),
);

function errorCodeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }
}

describe('nextDealStatus over every status × action × actor', () => {
  it('covers the whole table', () => {
    expect(cases).toHaveLength(dealStatuses.length * dealActions.length * dealActors.length);
  });

  it.each(cases)('%s + %s by %s', (status, action: DealAction, actor: DealActor) => {
    const expected = allowed[`${status} ${action} ${actor}`];
    if (expected) {
      expect(nextDealStatus(status, action, actor)).toBe(expected);
      return;
    }
    const code = errorCodeOf(() => nextDealStatus(status, action, actor));
    if ((action === 'propose_terms' || action === 'set_addresses') && closedToTerms.has(status))
      expect(code).toBe('DEAL_NOT_ACTIVE');
    else expect(code).toBe('INVALID_STATE_TRANSITION');
  });

  it('names the refused move in the error', () => {
    expect(() => nextDealStatus('cancelled', 'cancel', 'buyer')).toThrow(
      expect.objectContaining({
        code: 'INVALID_STATE_TRANSITION',
        status: 409,
        details: { status: 'cancelled', action: 'cancel', actor: 'buyer' },
      }),
    );
    expect(() => nextDealStatus('escrow_funded', 'propose_terms', 'seller')).toThrow(
      expect.objectContaining({ code: 'DEAL_NOT_ACTIVE', status: 409 }),
    );
  });
});
