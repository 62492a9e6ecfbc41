import {
  type DealWithHistory,
  declaresOnlyEscrowPayout,
  type EscrowStatusLegView,
  escrowPayoutActions,
  escrowPayoutDomain,
  platformFee,
  type TypedDataJson,
} from '@covenant/domain';
import { isAddress } from 'viem';
import {
  agreedLegTerms,
  mediatorSplitShare,
  signingKindOf,
  travelChargedToReceiver,
} from './agreed-leg-terms.js';

type Transfer = NonNullable<EscrowStatusLegView['payout']>['transfers'][number];

const notSigned = 'so it was not signed.';

/** What an Ethereum payout is checked against: the deal the user agreed to, the leg, and the chain as `GET /chains` lists it. */
export interface EthereumPayoutExpectation {
  deal: Pick<DealWithHistory, 'addresses' | 'asset_amount' | 'stable_amount' | 'history'>;
  leg: Pick<EscrowStatusLegView, 'leg' | 'chain' | 'amount' | 'deposit_address' | 'payout'>;
  /** The ETH entry of `GET /chains`: the chain id approvals are bound to and the platform's fee address. */
  chain: { chain_id?: number; fee_address: string };
}

type SignedPayout = { action: number; recipients: string[]; amounts: bigint[] };

/** The payout fields of the typed data, read strictly (what `typedDataFromJson` accepts on the server). */
function readPayout(typedData: TypedDataJson): SignedPayout {
  const { action, recipients, amounts } = typedData.message;
  if (
    typedData.primaryType !== 'Payout' ||
    !declaresOnlyEscrowPayout(typedData.types) ||
    typeof action !== 'number' ||
    !Array.isArray(recipients) ||
    !Array.isArray(amounts) ||
    !recipients.every(
      (recipient) => typeof recipient === 'string' && isAddress(recipient, { strict: false }),
    ) ||
    !amounts.every((amount) => typeof amount === 'string' && /^(0|[1-9]\d{0,77})$/.test(amount))
  ) {
    throw new Error(`This is not an escrow payout, ${notSigned}`);
  }
  return {
    action,
    recipients: recipients.map((recipient) => String(recipient).toLowerCase()),
    amounts: amounts.map((amount) => BigInt(String(amount))),
  };
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Checks the EIP-712 payout an Ethereum leg asks the user to sign against the deal the user agreed
 * to, before the key signs it, and answers the transfers to show, derived from what is signed:
 * - the domain is the escrow contract's (`CovenantEscrow`, `1`), on the chain id the app knows for
 *   ETH, with this leg's escrow (its deposit address) as the verifying contract;
 * - the action is the one of the screen: a release (RELEASE, the receiver's agreed payout address
 *   and the deal's leg amount, as the contract requires and `buildEthereumPayout` builds; on the
 *   stable leg a second amount exactly when travel paid out of it charges the receiver, that charge
 *   as the deal's history records it, `travelChargedToReceiver`), a refund (REFUND, nothing named: the contract returns all to the depositor),
 *   or a split matching the mediator's decision in the deal's history (SPLIT of the receiver's gross
 *   share to its payout address; REFUND when the share is nothing). A split the page knows no
 *   decision for is refused: the contract pays a split to anyone.
 * The shown transfers must then be exactly these: the receiver's `amount − fee − charge`, the fee
 * `floor(amount / 10 000)` to the fee address `GET /chains` lists, and refunds to the depositor's
 * agreed refund address only (their amount is what the contract returns of the balance, not signed).
 * Anything else is refused with the reason.
 */
export function checkEthereumPayout(
  typedData: TypedDataJson,
  expected: EthereumPayoutExpectation,
): Transfer[] {
  const { deal, leg, chain } = expected;
  const signed = readPayout(typedData);
  const { domain } = typedData;
  if (domain.name !== escrowPayoutDomain.name || domain.version !== escrowPayoutDomain.version) {
    throw new Error(`The payout is not addressed to a Covenant escrow contract, ${notSigned}`);
  }
  if (chain.chain_id === undefined || domain.chainId !== chain.chain_id) {
    throw new Error(`The payout is for another Ethereum network than this deal’s, ${notSigned}`);
  }
  if (leg.chain !== 'ETH' || !same(domain.verifyingContract, leg.deposit_address)) {
    throw new Error(`The payout is for another escrow than this leg’s, ${notSigned}`);
  }
  const terms = agreedLegTerms(deal, leg.leg);
  if (BigInt(leg.amount) !== terms.amount) {
    throw new Error(`The escrow holds the leg for another amount than the deal’s, ${notSigned}`);
  }
  const payout = leg.payout;
  if (!payout) throw new Error(`This payout comes without the transfers it makes, ${notSigned}`);

  const receiver = terms.receiverPayoutAddress;
  const pays = (action: number, recipients: string[], amounts: bigint[]) =>
    signed.action === action &&
    signed.recipients.join() === recipients.map((r) => r.toLowerCase()).join() &&
    signed.amounts.join() === amounts.join();
  let gross = 0n;
  let charge = 0n;
  const kind = signingKindOf(leg);
  if (kind === 'release') {
    // Travel is paid out of the stable leg only; the release charges its receiver exactly its share.
    charge = leg.leg === 'stable' ? travelChargedToReceiver(deal) : 0n;
    if (
      !pays(escrowPayoutActions.release, [receiver], charge > 0n ? [terms.amount, charge] : [terms.amount]) ||
      charge > terms.amount - platformFee(terms.amount)
    ) {
      throw new Error(
        `The payout is not the release of this leg to ${receiver} for the deal’s amount, ${notSigned}`,
      );
    }
    gross = terms.amount;
  } else if (kind === 'refund') {
    if (!pays(escrowPayoutActions.refund, [], [])) {
      throw new Error(`The payout is not the refund of this leg to its depositor, ${notSigned}`);
    }
  } else if (kind === 'split') {
    const share = mediatorSplitShare(deal, leg.leg, terms.receiver);
    if (share === null) {
      throw new Error(
        `The payout splits the leg, but this page knows of no mediator’s split on this deal to check it against, ${notSigned}`,
      );
    }
    const matches =
      share === 0n
        ? pays(escrowPayoutActions.refund, [], [])
        : pays(escrowPayoutActions.split, [receiver], [share]);
    if (!matches) throw new Error(`The payout is not the mediator’s split of this leg, ${notSigned}`);
    gross = share;
  } else {
    throw new Error(`The payout is not a settlement or a refund of this leg, ${notSigned}`);
  }

  const fee = platformFee(gross);
  const derived: Transfer[] = [
    { kind: 'payout' as const, to: receiver, amount: (gross - fee - charge).toString() },
    { kind: 'fee' as const, to: chain.fee_address, amount: fee.toString() },
  ].filter((transfer) => transfer.amount !== '0');
  const key = (transfer: Transfer) => `${transfer.kind}:${transfer.to.toLowerCase()}:${transfer.amount}`;
  const shownPaid = payout.transfers.filter((transfer) => transfer.kind !== 'refund').map(key);
  if (shownPaid.sort().join() !== derived.map(key).sort().join()) {
    throw new Error(`The transfers shown are not the ones the payout makes, ${notSigned}`);
  }
  const refunds = payout.transfers.filter((transfer) => transfer.kind === 'refund');
  if (refunds.some((transfer) => !same(transfer.to, terms.depositorRefundAddress))) {
    throw new Error(
      `The payout returns money to an address other than the depositor’s refund address, ${notSigned}`,
    );
  }
  return [...derived, ...refunds.map((transfer) => ({ ...transfer, to: terms.depositorRefundAddress }))];
}
