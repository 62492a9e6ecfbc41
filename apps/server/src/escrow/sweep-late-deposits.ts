import { schema } from '@covenant/db';
import { isConfirmed } from '@covenant/escrow';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { ledgerEntryOf, loadEscrowBooks } from './escrow-rows.js';
import { raiseStaffAlert } from './staff-alerts.js';

/** How long a pass waits for a sweep to be mined before leaving it to the reconciliation. */
const sweepWaitMs = 30_000;

/**
 * Sends back what reached a leg after it was settled (a deposit paid late, or twice): the escrow's
 * `sweep()` pays its whole balance to the depositor's refund address, and the movement goes into the
 * leg's ledger so its books balance again. Runs for the escrows whose ledgers just changed.
 */
export async function sweepLateDeposits(deps: EscrowEngineDeps, escrowIds: readonly string[]): Promise<void> {
  for (const escrowId of new Set(escrowIds)) {
    const books = await loadEscrowBooks(deps.db, escrowId);
    for (const row of books.legs) {
      if (row.state !== 'released' && row.state !== 'refunded') continue;
      const chain = deps.chains.get(row.chain);
      if (!chain) continue;
      const ledger = books.ledger(row.leg).map(ledgerEntryOf);
      if (ledger.some((entry) => entry.kind === 'sweep' && entry.status === 'pending')) continue;
      const counted = ledger.filter((entry) => isConfirmed(entry, row.requiredConfirmations));
      const total = (kinds: string[]) =>
        counted.filter((entry) => kinds.includes(entry.kind)).reduce((sum, entry) => sum + entry.amount, 0n);
      const held = total(['deposit']) - total(['payout', 'fee', 'refund', 'sweep']);
      if (held <= 0n) continue;
      await chain.relayerTurn(async () => {
        let txRef: string;
        try {
          const signed = await chain.adapter.signSweep(row.depositAddress);
          await chain.adapter.broadcast(signed);
          txRef = signed.txRef;
        } catch (error) {
          await raiseStaffAlert(deps, {
            kind: 'sweep_refused',
            subject: `${escrowId}:${row.leg}`,
            message: 'A late deposit could not be swept back to the depositor',
            details: {
              escrow_id: escrowId,
              leg: row.leg,
              held: held.toString(),
              error: String(error).slice(0, 500),
            },
          });
          return;
        }
        const deadline = Date.now() + sweepWaitMs;
        let status = await chain.adapter.confirmations(txRef);
        while (status.state !== 'included' && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          status = await chain.adapter.confirmations(txRef);
        }
        if (status.state !== 'included') return;
        const { movements } = await chain.adapter.outgoingMovements(
          txRef,
          row.depositAddress,
          row.depositorRefundAddress,
        );
        const now = deps.now();
        const sweeps = movements.filter((movement) => movement.kind === 'sweep');
        if (sweeps.length === 0) return;
        await deps.db
          .insert(schema.escrowLedgerEntries)
          .values(
            sweeps.map((movement) => ({
              escrowId,
              leg: row.leg,
              chain: row.chain,
              kind: 'sweep' as const,
              amount: movement.amount.toString(),
              txRef,
              position: movement.position,
              counterpartyAddress: movement.to,
              blockRef: movement.blockRef,
              blockHeight: movement.height,
              confirmations: status.confirmations,
              status: 'pending' as const,
              createdAt: now,
              updatedAt: now,
            })),
          )
          .onConflictDoNothing();
        deps.logger.info({ escrowId, leg: row.leg, txRef }, 'late deposit swept back to the depositor');
      });
    }
  }
}
