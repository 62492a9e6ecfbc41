import type { DealParty, DealWithHistory } from '@covenant/domain';

/** What the deal the user agreed to fixes for one leg: its amount, who receives it and where, and where it goes back. */
export interface AgreedLegTerms {
  /** The leg's amount in base units, from the deal's terms. */
  amount: bigint;
  depositor: DealParty;
  receiver: DealParty;
  /** The receiver's payout address on the leg's chain, as set on the deal. */
  receiverPayoutAddress: string;
  /** The depositor's refund address on the leg's chain, as set on the deal. */
  depositorRefundAddress: string;
}

/**
 * The agreed terms of `leg` read from the deal (not from the escrow's answer), so a payout can be
 * checked against what the user agreed to. The seller deposits the asset leg for the buyer, the buyer
 * the stable leg for the seller. Throws when the deal lacks them: nothing can then be checked.
 */
export function agreedLegTerms(
  deal: Pick<DealWithHistory, 'addresses' | 'asset_amount' | 'stable_amount'>,
  leg: 'asset' | 'stable',
): AgreedLegTerms {
  const depositor: DealParty = leg === 'asset' ? 'seller' : 'buyer';
  const receiver: DealParty = depositor === 'seller' ? 'buyer' : 'seller';
  const receiverPayoutAddress = deal.addresses[receiver]?.payout_address;
  const depositorRefundAddress = deal.addresses[depositor]?.refund_address;
  const amount = leg === 'asset' ? deal.asset_amount : deal.stable_amount;
  if (!receiverPayoutAddress || !depositorRefundAddress || !/^\d+$/.test(amount)) {
    throw new Error(
      'The deal does not show the agreed addresses and amount this payout must match, so it was not signed.',
    );
  }
  return { amount: BigInt(amount), depositor, receiver, receiverPayoutAddress, depositorRefundAddress };
}

/**
 * The receiver's gross share of `leg` in the mediator's latest decision when that decision is a
 * split (`dispute_decided` in the deal's history, amounts per leg and party), or null when the
 * page knows of no split.
 */
export function mediatorSplitShare(
  deal: Pick<DealWithHistory, 'history'>,
  leg: 'asset' | 'stable',
  receiver: DealParty,
): bigint | null {
  const decided = deal.history.filter((entry) => entry.action === 'dispute_decided').at(-1);
  if (decided?.details.decision !== 'split') return null;
  const amounts = decided.details.amounts as Record<string, Record<string, unknown> | undefined> | undefined;
  const share = amounts?.[leg]?.[receiver];
  return typeof share === 'string' && /^\d+$/.test(share) ? BigInt(share) : null;
}

/**
 * What a payout of kind `kind` may give the leg's receiver before the platform fee (and, on
 * Bitcoin, its share of the network fee): the deal's amount on a release, the mediator's share on a
 * split, nothing on a refund. Null for a split the page knows no mediator's decision for, or a kind
 * it does not settle: then nothing may go to the receiver or the fee address.
 */
export function agreedGrossToReceiver(
  deal: Pick<DealWithHistory, 'history'>,
  leg: 'asset' | 'stable',
  terms: AgreedLegTerms,
  kind: string | undefined,
): bigint | null {
  if (kind === 'release') return terms.amount;
  if (kind === 'refund') return 0n;
  if (kind === 'split') return mediatorSplitShare(deal, leg, terms.receiver);
  return null;
}

/**
 * What travel paid out of the stable leg so far charges its receiver: the sum of the receiver's
 * shares the deal's history records with each confirmed travel payment (`travel_paid`), as the
 * server sums the confirmed travel payouts' shares into a release's charge (`travelAccountOf`).
 */
export function travelChargedToReceiver(deal: Pick<DealWithHistory, 'history'>): bigint {
  return deal.history
    .filter((entry) => entry.action === 'travel_paid')
    .map((entry) => entry.details.receiver_share)
    .reduce<bigint>(
      (sum, share) => sum + (typeof share === 'string' && /^\d+$/.test(share) ? BigInt(share) : 0n),
      0n,
    );
}

/**
 * The kind of the payout a leg's `signing_payload` approves, which its checks must hold it to: the
 * server's `signing_kind` (after the leg's own payout, a late deposit's return is a refund while
 * `payout.kind` still says release), else the leg's own payout's.
 */
export function signingKindOf(leg: {
  signing_kind?: string | null;
  payout: { kind: string } | null;
}): string | undefined {
  return leg.signing_kind ?? leg.payout?.kind;
}
