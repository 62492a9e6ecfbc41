import type { EscrowStatusView, TypedDataJson } from '@covenant/domain';
import { legDepositor, viewLeg } from '@covenant/escrow';
import { eligibleSigners, pairedPayout, sentPayoutStatuses } from './approve-payout.js';
import { settleByOf } from './escrow-decide-by.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { ledgerEntryOf, legOf, loadEscrowBooks, settlementTransactionsOf } from './escrow-rows.js';
import { findPartyEscrow } from './find-party-escrow.js';
import { unsignedPayoutOf } from './payout-variants.js';

/**
 * An escrow as one of its deal's parties sees it (`GET /escrow/{id}/status`, `GET /deals/{id}/escrow`):
 * per leg what arrived and how deep, its state and payout, and — when the caller's approval is
 * what a payout waits for — the payload to sign in its chain's format and the key to sign it with,
 * and the leg's custody (Bitcoin's witness script and public keys). The platform's key index is
 * never shown. Anybody else's escrow is NOT_FOUND.
 */
export async function escrowStatusView(
  deps: Pick<EscrowEngineDeps, 'db'>,
  userId: string,
  by: { escrowId: string } | { dealId: string },
): Promise<EscrowStatusView> {
  const found = await findPartyEscrow(deps.db, userId, by);
  const { party } = found;
  const books = await loadEscrowBooks(deps.db, found.escrow.id);
  const legsView = books.legs.map((row) => {
    const leg = legOf(row);
    const view = viewLeg(leg, books.ledger(row.leg).map(ledgerEntryOf));
    const payout = books.payout(row.leg);
    const signatures = payout ? books.signatures(payout.id) : [];
    const approvedBy = signatures.map((signature) => signature.signer);
    // What the caller is asked to sign: the leg's payout, or after it a late deposit's return.
    const candidates = [...(payout ? [payout] : []), ...books.lateDepositPayouts(row.leg)];
    // A settlement another leg of which has gone out is owed: the party it pays may approve it too.
    const committed = (candidate: (typeof candidates)[number]) =>
      pairedPayout(candidate) &&
      books.legs.some((other) => {
        const theirs = other.leg === row.leg ? null : books.payout(other.leg);
        return (
          theirs?.source === candidate.source &&
          (sentPayoutStatuses as readonly string[]).includes(theirs.status)
        );
      });
    const awaiting = candidates.find(
      (candidate) =>
        candidate.status === 'collecting' &&
        eligibleSigners(candidate, row.leg, committed(candidate)).includes(party) &&
        !books.signatures(candidate.id).some((signature) => signature.signer === party),
    );
    // Ethereum's payload is the EIP-712 typed data itself; other chains' carry their format.
    const ethereum = awaiting !== undefined && row.chain === 'ETH';
    const signer = awaiting ? (party === 'buyer' ? row.buyerSigner : row.sellerSigner) : null;
    type TransferView = { kind: 'payout' | 'fee' | 'refund'; to: string; amount: string };
    // A Bitcoin payout pays its network fee out of the recipient's output, the depositor's refund
    // its share for the deposit outputs the amount did not need (and folds dust into it):
    // what its transaction pays is the summary built with it, not the engine's plan.
    const summary = (
      payout?.signingPayload as {
        summary?: { outputs?: TransferView[]; network_fee?: string; refund_network_fee?: string };
      }
    )?.summary;
    const transfers = summary?.outputs ?? (payout?.plan as { transfers?: TransferView[] })?.transfers ?? [];
    return {
      leg: row.leg,
      chain: row.chain,
      symbol: row.symbol,
      amount: row.requiredAmount,
      deposit_address: row.depositAddress,
      depositor: legDepositor[row.leg],
      received: view.received.toString(),
      pending: view.pending.toString(),
      confirmations: view.confirmations,
      required_confirmations: row.requiredConfirmations,
      state: row.state,
      deadline: row.deadline.toISOString(),
      refund_after: row.refundAfter?.toISOString() ?? null,
      payout: payout && {
        kind: payout.kind,
        source: payout.source,
        status: payout.status,
        transfers,
        network_fee: summary?.network_fee ?? null,
        // Stored before the depositor's refund paid a share: the recipient paid all of it.
        refund_network_fee: summary?.network_fee === undefined ? null : (summary.refund_network_fee ?? '0'),
        approved_by: approvedBy,
        transaction_hash: payout.txRef,
      },
      release_typed_data: ethereum ? (awaiting.signingPayload as unknown as TypedDataJson) : null,
      signer_address: ethereum ? signer : null,
      signing_payload: awaiting
        ? ethereum
          ? { format: 'eip712', data: awaiting.signingPayload }
          : (unsignedPayoutOf(awaiting, party).signingPayload as Record<string, unknown>)
        : null,
      signing_kind: awaiting?.kind ?? null,
      signer,
      custody: row.custody ?? null,
    };
  });
  const done = found.escrow.status === 'settled' || found.escrow.status === 'refunded';
  return {
    escrow_id: found.escrow.id,
    deal_id: found.deal.id,
    status: found.escrow.status,
    legs: legsView,
    settle_by: settleByOf(books.legs)?.toISOString() ?? null,
    settlement_transactions: done ? settlementTransactionsOf(books) : null,
  };
}
