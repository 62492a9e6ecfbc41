import type { EscrowStatusLegView } from '@covenant/domain';
import { tokenAmount } from './token-amount.js';

/** A leg's state in the words the deal page uses. */
export function legStateText(
  leg: Pick<EscrowStatusLegView, 'state' | 'received' | 'amount' | 'symbol'>,
): string {
  switch (leg.state) {
    case 'awaiting_deposit':
      return 'Awaiting deposit';
    case 'partially_funded':
      return `Partially funded — ${tokenAmount(leg.received, leg.symbol)} of ${tokenAmount(leg.amount, leg.symbol)} ${leg.symbol} received`;
    case 'funded':
      return 'Funded';
    case 'releasing':
      return 'Releasing';
    case 'released':
      return 'Released';
    case 'refunding':
      return 'Refunding';
    case 'refunded':
      return 'Refunded';
  }
}
