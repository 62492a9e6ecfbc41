import { AppError } from '../errors.js';
import type { dealStatuses } from './deal.js';

export type DealStatus = (typeof dealStatuses)[number];

/** Who acts on a deal: one of its two parties, the platform itself, or a mediator during a dispute. */
export const dealActors = ['buyer', 'seller', 'system', 'mediator'] as const;
export type DealActor = (typeof dealActors)[number];

export const dealActions = [
  'propose_terms',
  'set_addresses',
  'attach_cis',
  'review_cis',
  'complete_cis_exchange',
  'accept_terms',
  'fund_escrow',
  'release',
  'cancel',
  'expire_funding',
  'expire_settlement',
  'open_dispute',
  'resolve_release',
  'resolve_refund',
  'resolve_split',
] as const;

/** Actions that change what was agreed: refused with DEAL_NOT_ACTIVE (not INVALID_STATE_TRANSITION) once funded or closed. */
const termChanges: readonly DealAction[] = ['propose_terms', 'set_addresses'];
export type DealAction = (typeof dealActions)[number];

interface Transition {
  from: DealStatus;
  action: DealAction;
  actors: readonly DealActor[];
  to: DealStatus;
}

const parties = ['buyer', 'seller'] as const;

/**
 * Every move a deal can make. Anything not listed is refused. Terms may change until the escrow
 * opens (spec §4: only before funding); a change after agreement reopens the negotiation, so the
 * escrow is never set up on terms one side has not accepted. The table cannot see the escrow: a
 * terms_agreed deal may or may not have one, and the server refuses proposals, address changes and
 * acceptances with DEAL_NOT_ACTIVE once it exists, since the escrow keeps the terms it opened on.
 * Once funded, only the platform (release, or a cancellation when the settlement window closes
 * before the deal settled) or a dispute moves the deal; a mediator's decision either
 * releases (per terms or split per leg) or refunds both. A dispute may also be opened while the
 * escrow is being funded (terms_agreed); release and split then need every leg funded, which the
 * server checks from the deposits: until both legs are, the mediator can only refund.
 * Each party attaches a CIS and reviews the other's while the deal is a draft; the approval that
 * completes the exchange is `complete_cis_exchange`. Addresses are part of what is agreed, so setting
 * them after agreement reopens the negotiation like a change of terms.
 */
export const dealTransitions: readonly Transition[] = [
  { from: 'draft', action: 'propose_terms', actors: parties, to: 'draft' },
  { from: 'cis_submitted', action: 'propose_terms', actors: parties, to: 'cis_submitted' },
  { from: 'terms_agreed', action: 'propose_terms', actors: parties, to: 'cis_submitted' },
  { from: 'draft', action: 'set_addresses', actors: parties, to: 'draft' },
  { from: 'cis_submitted', action: 'set_addresses', actors: parties, to: 'cis_submitted' },
  { from: 'terms_agreed', action: 'set_addresses', actors: parties, to: 'cis_submitted' },
  { from: 'draft', action: 'attach_cis', actors: parties, to: 'draft' },
  { from: 'draft', action: 'review_cis', actors: parties, to: 'draft' },
  { from: 'draft', action: 'complete_cis_exchange', actors: parties, to: 'cis_submitted' },
  { from: 'cis_submitted', action: 'accept_terms', actors: parties, to: 'terms_agreed' },
  { from: 'terms_agreed', action: 'fund_escrow', actors: ['system'], to: 'escrow_funded' },
  { from: 'escrow_funded', action: 'release', actors: ['system'], to: 'completed' },
  { from: 'draft', action: 'cancel', actors: parties, to: 'cancelled' },
  { from: 'cis_submitted', action: 'cancel', actors: parties, to: 'cancelled' },
  { from: 'terms_agreed', action: 'cancel', actors: parties, to: 'cancelled' },
  { from: 'terms_agreed', action: 'expire_funding', actors: ['system'], to: 'cancelled' },
  { from: 'escrow_funded', action: 'expire_settlement', actors: ['system'], to: 'cancelled' },
  { from: 'terms_agreed', action: 'open_dispute', actors: parties, to: 'disputed' },
  { from: 'escrow_funded', action: 'open_dispute', actors: parties, to: 'disputed' },
  { from: 'disputed', action: 'resolve_release', actors: ['mediator'], to: 'completed' },
  { from: 'disputed', action: 'resolve_refund', actors: ['mediator'], to: 'cancelled' },
  { from: 'disputed', action: 'resolve_split', actors: ['mediator'], to: 'completed' },
];

/**
 * The status a deal in `status` moves to when `actor` does `action`. Throws 409 DEAL_NOT_ACTIVE for
 * a change of terms the deal no longer allows, and 409 INVALID_STATE_TRANSITION for any other move
 * the table does not list (including a listed move by the wrong actor).
 */
export function nextDealStatus(status: DealStatus, action: DealAction, actor: DealActor): DealStatus {
  const transition = dealTransitions.find((entry) => entry.from === status && entry.action === action);
  if (transition?.actors.includes(actor)) return transition.to;
  if (termChanges.includes(action) && !transition) {
    throw new AppError('DEAL_NOT_ACTIVE', 'The deal can no longer be modified', { status });
  }
  throw new AppError('INVALID_STATE_TRANSITION', `A ${status} deal cannot do ${action} by ${actor}`, {
    status,
    action,
    actor,
  });
}
