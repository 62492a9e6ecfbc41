import {
  type CanonicalValue,
  formatAmount,
  formatUtcMinute,
  isTokenSymbol,
  tokenDecimals,
} from '@covenant/domain';

export interface NotificationText {
  title: string;
  body: string;
}

type Payload = { [key: string]: CanonicalValue };

/** A payload field as text for a sentence, or undefined when it is missing or not a plain value. */
function text(payload: Payload, key: string): string | undefined {
  const value = payload[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

const unfundedLegs = {
  asset: 'the asset leg (the seller’s deposit)',
  stable: 'the stable leg (the buyer’s deposit)',
};

/** "A deposit of 123.456789 USDC" (or of an unknown token, by its address), for the foreign-deposit events. */
function foreignDeposit(payload: Payload): string {
  const amount = text(payload, 'amount');
  const symbol = text(payload, 'symbol');
  if (amount && symbol && isTokenSymbol(symbol) && /^\d+$/.test(amount)) {
    return `A deposit of ${formatAmount(BigInt(amount), tokenDecimals[symbol])} ${symbol}`;
  }
  const token = text(payload, 'token');
  return token ? `A deposit of the token ${token}` : 'A deposit of another asset';
}

function legName(payload: Payload): string {
  const leg = text(payload, 'leg');
  return leg === 'asset' ? 'asset leg’s' : leg === 'stable' ? 'stable leg’s' : 'deal’s';
}

const decisions: Record<string, string> = {
  release: 'release per the agreed terms',
  refund: 'refund both parties',
  split: 'a split of each leg',
};

/** Why a payout approved already had to be built again (`escrow_payout_rebuilt`), and how it was. */
const payoutRebuiltReasons: Record<string, { why: string; rebuilt: string }> = {
  fee_below_minimum: {
    why: 'the Bitcoin network’s minimum fee rose above the fee it was built with',
    rebuilt: 'It was built again at the current fee',
  },
  balance_changed: {
    why: 'a deposit reached the leg after it was built',
    rebuilt: 'It was built again to pay out what the leg now holds',
  },
  nonce_used: { why: 'its signed form expired', rebuilt: 'It was built again' },
  reverted: {
    why: 'its transaction failed on-chain (a deposit landed as it ran)',
    rebuilt: 'It was built again',
  },
};

const travelKindNames: Record<string, string> = {
  flight: 'a flight',
  hotel: 'a hotel',
  ground: 'ground transport',
};

/**
 * The in-app notification (and e-mail) for a deal event, in plain language: null for events that
 * need none. Parties are not named here, so no user lookup sits in the transaction that records it.
 */
export function describeDealEvent(action: string, payload: Payload): NotificationText | null {
  const version = text(payload, 'version');
  switch (action) {
    case 'created':
      return {
        title: 'New deal proposed',
        body: 'A buyer opened a deal with you. Attach your Customer Information Sheet to begin.',
      };
    case 'terms_proposed':
    case 'terms_updated':
      return {
        title: version ? `New terms proposed (version ${version})` : 'New terms proposed',
        body: 'Review the new terms, then accept them or propose a counter-offer.',
      };
    case 'addresses_set':
      return {
        title: 'Addresses set',
        body: 'Your counterparty set its payout and refund addresses for this deal.',
      };
    case 'terms_accepted':
      return {
        title: version ? `Terms accepted (version ${version})` : 'Terms accepted',
        body: 'The terms are agreed. The next step is funding the escrow.',
      };
    case 'cis_attached':
      return {
        title: 'Customer Information Sheet attached',
        body: 'Your counterparty attached its Customer Information Sheet. Review it and approve or reject it.',
      };
    case 'cis_approved':
      return {
        title: 'Your Customer Information Sheet was approved',
        body: 'Your counterparty approved your Customer Information Sheet.',
      };
    case 'cis_rejected': {
      const comment = text(payload, 'comment');
      return {
        title: 'Your Customer Information Sheet was rejected',
        body: comment
          ? `Your counterparty rejected your Customer Information Sheet: "${comment}"`
          : 'Your counterparty rejected your Customer Information Sheet.',
      };
    }
    case 'cis_exchange_completed':
      return {
        title: 'Customer Information Sheets approved',
        body: 'Both Customer Information Sheets are approved. The next step is agreeing the terms.',
      };
    case 'cancelled': {
      const reason = text(payload, 'reason');
      return {
        title: 'Deal cancelled',
        body: reason ? `The deal was cancelled. Reason: ${reason}` : 'The deal was cancelled.',
      };
    }
    case 'escrow_opened':
      return {
        title: 'Escrow opened',
        body: 'The escrow is open. Each party sends its leg to the deposit address shown in the deal room, before the funding deadline.',
      };
    case 'escrow_funded':
      return {
        title: 'Escrow funded',
        body: 'Both legs are in escrow. Open the deal room for the next step to settlement.',
      };
    case 'escrow_settled':
      return {
        title: 'Deal completed',
        body: 'Both legs were paid out. The transactions are listed in the deal room.',
      };
    case 'escrow_payout_rebuilt': {
      const what = text(payload, 'kind') === 'refund' ? 'refund' : 'payout';
      const { why, rebuilt } = payoutRebuiltReasons[text(payload, 'reason') ?? ''] ?? {
        why: 'it can no longer be carried out',
        rebuilt: 'It was built again',
      };
      return {
        title: `Approve the ${what} again`,
        body: `The ${legName(payload)} ${what} could not be sent as approved: ${why}. ${rebuilt}, and nothing left the escrow. Approve it again in the deal room.`,
      };
    }
    case 'escrow_refunded':
      return {
        title: 'Escrow refunded',
        body: 'The deposits went back to their refund addresses. The transactions are listed in the deal room.',
      };
    case 'funding_deadline_passed':
      return {
        title: 'Funding deadline passed',
        body: 'The escrow was not funded in time, so the deal was cancelled. Anything deposited goes back to its refund address.',
      };
    case 'funding_deadline_closing': {
      const deadline = text(payload, 'funding_deadline');
      const when = deadline ? formatUtcMinute(deadline) : undefined;
      const unfunded: readonly CanonicalValue[] = Array.isArray(payload.unfunded) ? payload.unfunded : [];
      const legs = unfunded.flatMap((leg) =>
        leg === 'asset' || leg === 'stable' ? [unfundedLegs[leg]] : [],
      );
      const waiting = legs.length > 0 ? ` Not funded yet: ${legs.join(' and ')}.` : '';
      return {
        title: 'Funding deadline approaching',
        body: `${when ? `The escrow must be funded by ${when}.` : 'The escrow’s funding deadline is near.'}${waiting} If it is not funded in time, the deal is cancelled and any deposit goes back to its refund address.`,
      };
    }
    case 'settlement_window_closing': {
      const settleBy = text(payload, 'settle_by');
      const when = settleBy ? formatUtcMinute(settleBy) : undefined;
      return {
        title: 'Settlement window closing',
        body: `${when ? `The deal must start to settle by ${when}.` : 'The deal’s settlement window closes soon.'} Approve your release in the deal room (after the meeting, if the terms require one); otherwise the deal is cancelled and both deposits are refunded.`,
      };
    }
    case 'settlement_window_passed':
      return {
        title: 'Settlement window closed',
        body: 'The deal did not settle within its settlement window, so it was cancelled. Both deposits go back to their refund addresses.',
      };
    case 'dispute_evidence_added':
      return {
        title: 'Evidence added to the dispute',
        body: 'New evidence was added to the dispute on this deal. Open the deal to see it.',
      };
    case 'dispute_opened': {
      const reason = text(payload, 'reason');
      return {
        title: 'Dispute opened',
        body: reason
          ? `A dispute was opened on this deal. Reason: ${reason}. A mediator will review it.`
          : 'A dispute was opened on this deal. A mediator will review it.',
      };
    }
    case 'dispute_assigned':
      return null;
    case 'dispute_decided': {
      const decision = text(payload, 'decision');
      const rationale = text(payload, 'rationale');
      const what = decision ? (decisions[decision] ?? decision) : undefined;
      return {
        title: 'Dispute decided',
        body: [what ? `The mediator decided: ${what}.` : 'The mediator decided the dispute.', rationale]
          .filter(Boolean)
          .join(' '),
      };
    }
    case 'meeting_checked_in':
      return payload.both_checked_in === true
        ? {
            title: 'Both parties checked in at the meeting',
            body: 'The meeting is confirmed. The escrow can now settle: approve your release in the deal room.',
          }
        : {
            title: 'Your counterparty checked in at the meeting',
            body: 'Your counterparty checked in with your code. Check in with theirs to confirm the meeting.',
          };
    case 'meeting_waived':
      return payload.both_waived === true
        ? {
            title: 'Meeting waived by both parties',
            body: 'The deal no longer waits for the meeting. The escrow can settle once funded.',
          }
        : {
            title: 'Your counterparty waived the meeting',
            body: 'Your counterparty asked to settle without meeting. Waive it too, or check in at the meeting.',
          };
    case 'meeting_change_proposed':
      return {
        title: 'Change of the meeting proposed',
        body: 'Your counterparty proposed another place or date for the meeting. Accept it in the deal room to apply it.',
      };
    case 'meeting_changed':
      return {
        title: 'Meeting changed',
        body: 'Your counterparty accepted the change: the meeting’s new place and dates apply.',
      };
    case 'travel_requested': {
      const kind = travelKindNames[text(payload, 'kind') ?? ''] ?? 'travel';
      const traveller = text(payload, 'traveller');
      return {
        title: `Travel requested: ${kind}`,
        body: traveller
          ? `Your counterparty asked the concierge for ${kind} for the ${traveller}'s trip to the meeting.`
          : `Your counterparty asked the concierge for ${kind} for the meeting.`,
      };
    }
    case 'foreign_deposit_returned': {
      const to = text(payload, 'to');
      const toAddress = text(payload, 'to_address');
      const whose = to === 'buyer' || to === 'seller' ? `the ${to}’s` : 'its sender’s';
      return {
        title: 'Wrong-token deposit returned',
        body: `${foreignDeposit(payload)} reached the ${legName(payload)} escrow, which does not hold that token. It is being sent back to ${whose} address in the terms${toAddress ? ` (${toAddress})` : ''}; it was never part of the deal.`,
      };
    }
    case 'foreign_deposit_return_failed':
      return {
        title: 'Wrong-token deposit return failed',
        body: `${foreignDeposit(payload)} reached the ${legName(payload)} escrow, which does not hold that token, and its return did not go through. It is still in the escrow and will be sent again; nothing else in the deal changes.`,
      };
    case 'foreign_deposit_held': {
      const transaction = text(payload, 'deposit_transaction');
      return {
        title: 'Wrong-token deposit held',
        body: `${foreignDeposit(payload)} reached the ${legName(payload)} escrow, which does not hold that token, from an address of neither party. It stays in the escrow until staff return it to the party who sent it: if it was yours, contact support${transaction ? ` with the transaction ${transaction}` : ''}.`,
      };
    }
    case 'travel_quoted': {
      const kind = travelKindNames[text(payload, 'kind') ?? ''] ?? 'travel';
      const provider = text(payload, 'provider');
      const amount = text(payload, 'amount');
      const symbol = text(payload, 'symbol');
      const price =
        amount && symbol && isTokenSymbol(symbol) && /^\d+$/.test(amount)
          ? ` for ${formatAmount(BigInt(amount), tokenDecimals[symbol])} ${symbol}`
          : '';
      return {
        title: `Travel quoted: ${kind}`,
        body: `The concierge quoted ${kind}${provider ? ` with ${provider}` : ''}${price}. Review the quote and approve it to have it paid from escrow.`,
      };
    }
    case 'travel_file_attached':
      return {
        title: 'Travel document attached',
        body: 'The concierge attached a quote or booking confirmation to a travel item.',
      };
    case 'travel_cancelled': {
      // Cancelled with its deal: the deal's own cancellation tells the parties.
      if (text(payload, 'reason') === 'deal_cancelled') return null;
      const kind = travelKindNames[text(payload, 'kind') ?? ''] ?? 'travel';
      return { title: `Travel cancelled: ${kind}`, body: `A request for ${kind} was cancelled.` };
    }
    case 'travel_approved':
      return payload.both_approved === true
        ? {
            title: 'Travel quote approved by both parties',
            body: 'Both parties approved the quote. It is being paid from the escrow.',
          }
        : {
            title: 'Your counterparty approved a travel quote',
            body: 'Approve the quote too to have it paid from the escrow.',
          };
    case 'travel_paid':
      return {
        title: 'Travel paid from escrow',
        body: 'A travel quote was paid from the stable leg’s escrow to the provider. The concierge books it next.',
      };
    case 'travel_booked': {
      const kind = travelKindNames[text(payload, 'kind') ?? ''] ?? 'travel';
      return {
        title: `Travel booked: ${kind}`,
        body: `The concierge confirmed the booking of ${kind} for the meeting.`,
      };
    }
    case 'travel_rule_exchanged':
      return {
        title: 'Travel Rule information exchanged',
        body: 'As the escrow opened, both parties’ originator and beneficiary details (IVMS 101) were exchanged. See them on the deal page.',
      };
    // Recorded for the audit trail; the parties are not notified of routine compliance reads.
    case 'travel_rule_read_by_staff':
    case 'staff_viewed':
      return null;
    default:
      return { title: `Deal updated: ${action}`, body: 'Open the deal to see what changed.' };
  }
}
