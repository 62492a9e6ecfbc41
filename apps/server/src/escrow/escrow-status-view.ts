import type { EscrowStatusView, TypedDataJson } from '@covenant/domain';
import { legDepositor, viewLeg } from '@covenant/escrow';
import { eligibleSigners } from './approve-payout.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { ledgerEntryOf, legOf, loadEscrowBooks, settlementTransactionsOf } from './escrow-rows.js';
import { findPartyEscrow } from './find-party-escrow.js';

/**
 * An escrow as one of its deal's parties sees it (`GET /escrow/{id}/status`, `GET /deals/{id}/escrow`):
 * per leg what arrived and how deep, its state and payout, and — when the caller's approval is
 * what the payout waits for — the typed data to sign and the address to sign it with. Anybody
 * else's escrow is NOT_FOUND.
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
    const awaitsCaller =
      payout !== null &&
      payout.status === 'collecting' &&
      eligibleSigners(payout, row.leg).includes(party) &&
      !approvedBy.includes(party);
    const transfers =
      (payout?.plan as { transfers?: { kind: 'payout' | 'fee' | 'refund'; to: string; amount: string }[] })
        ?.transfers ?? [];
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
        approved_by: approvedBy,
        transaction_hash: payout.txRef,
      },
      release_typed_data: awaitsCaller ? (payout.signingPayload as unknown as TypedDataJson) : null,
      signer_address: awaitsCaller ? (party === 'buyer' ? row.buyerSigner : row.sellerSigner) : null,
    };
  });
  const done = found.escrow.status === 'settled' || found.escrow.status === 'refunded';
  return {
    escrow_id: found.escrow.id,
    deal_id: found.deal.id,
    status: found.escrow.status,
    legs: legsView,
    settlement_transactions: done ? settlementTransactionsOf(books) : null,
  };
}
