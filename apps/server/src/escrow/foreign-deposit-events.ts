import { schema } from '@covenant/db';
import type { CanonicalValue } from '@covenant/domain';
import type { DepositMovement, Leg } from '@covenant/escrow';
import { and, desc, eq } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import type { EscrowChain } from './escrow-chains.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { raiseStaffAlert, resolveStaffAlert } from './staff-alerts.js';

/** A deposit of an asset its escrow does not hold for the deal, as the watcher saw it. */
export type ForeignDeposit = Pick<
  DepositMovement,
  'watched' | 'tokenAddress' | 'amount' | 'txRef' | 'position' | 'from'
>;

/** The staff alert kinds of a foreign deposit, each opened once per deposit (subject `txRef:position`). */
export const foreignDepositAlert = 'wrong_token_deposit';
export const foreignReturnFailedAlert = 'foreign_asset_return_failed';

/** The platform's token at `address` on the chain (null: the chain's coin); undefined when it trades no such token. */
export function tokenOf(chain: EscrowChain, address: string | null) {
  const wanted = (address ?? '').toLowerCase();
  return chain.info.tokens.find((candidate) => (candidate.address ?? '').toLowerCase() === wanted);
}

/** The deal event's description of a deposit to the leg, for the parties' history and notifications. */
export function foreignDepositPayload(
  chain: EscrowChain,
  leg: { escrowId: string; leg: Leg },
  deposit: Pick<ForeignDeposit, 'tokenAddress' | 'amount' | 'txRef'>,
): { [key: string]: CanonicalValue } {
  return {
    escrow_id: leg.escrowId,
    leg: leg.leg,
    symbol: tokenOf(chain, deposit.tokenAddress)?.symbol ?? null,
    token: deposit.tokenAddress,
    amount: deposit.amount.toString(),
    deposit_transaction: deposit.txRef,
  };
}

/** Appends an event to the history of the escrow's deal (which notifies both parties), with the deal locked. */
export async function appendEscrowDealEvent(
  deps: Pick<EscrowEngineDeps, 'db' | 'now'>,
  escrowId: string,
  event: { actorId: string | null; action: string; payload: { [key: string]: CanonicalValue } },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [escrow] = await tx
      .select({ dealId: schema.escrows.dealId })
      .from(schema.escrows)
      .where(eq(schema.escrows.id, escrowId));
    if (!escrow) return;
    await tx
      .select({ id: schema.deals.id })
      .from(schema.deals)
      .where(eq(schema.deals.id, escrow.dealId))
      .for('update');
    await appendDealEvent(tx, { dealId: escrow.dealId, createdAt: deps.now(), ...event });
  });
}

/** A return of a foreign deposit: its chain, deposit (`txRef:position`), leg and transaction (null: never built). */
interface ForeignReturnAttempt {
  chain: string;
  subject: string;
  escrowId: string | null;
  leg: Leg;
  txRef: string | null;
}

/**
 * A return mined without reverting: the deposit is back with the party who sent it, so neither its
 * wrong-token alert nor a failed return's alert needs anybody any more (the deal's history keeps the
 * return).
 */
export async function foreignReturnMined(
  deps: Pick<EscrowEngineDeps, 'db' | 'now'>,
  attempt: Pick<ForeignReturnAttempt, 'subject'>,
): Promise<void> {
  for (const kind of [foreignDepositAlert, foreignReturnFailedAlert]) {
    await resolveStaffAlert(deps, { kind, subject: attempt.subject });
  }
}

/** What staff read of a failed return, and whether the engine itself sends it again. */
function failureMessage(
  attempt: ForeignReturnAttempt,
  failure: { error: string; reverted: boolean },
  resent: boolean,
) {
  const what = 'The return of a wrong-token deposit';
  const still = 'the deposit is still in the escrow: send it again to the party who sent it';
  if (attempt.txRef === null)
    return `${what} was refused by the node before it was sent (${failure.error}); the engine tries again each pass`;
  if (failure.reverted) return `${what} reverted on-chain; ${still}`;
  return resent
    ? `${what} was never mined (${failure.error}); the engine sends it again`
    : `${what} was never mined (${failure.error}); ${still}`;
}

/**
 * A return that did not bring the deposit back: the node refused to build it, it reverted on-chain,
 * or it was never mined. The deposit is still in the escrow (a reverted call moves nothing; the
 * contract's once-per-arrival mark is set only by a return that succeeds), so it can be sent again.
 * Staff are alerted with the deposit's details, from which they can send it again
 * (`returnHeldForeignDeposit`); one never mined or never built whose sender the watcher named is
 * sent again by the engine itself (`retryForeignReturns`). Both parties, who were told the return
 * was on its way, are told it did not arrive, once while the alert is open.
 */
export async function foreignReturnFailed(
  deps: EscrowEngineDeps,
  attempt: ForeignReturnAttempt,
  failure: { error: string; reverted: boolean },
): Promise<void> {
  const [deposit] = await deps.db
    .select()
    .from(schema.staffAlerts)
    .where(
      and(eq(schema.staffAlerts.kind, foreignDepositAlert), eq(schema.staffAlerts.subject, attempt.subject)),
    )
    .orderBy(desc(schema.staffAlerts.createdAt))
    .limit(1);
  const details = deposit?.details ?? {
    escrow_id: attempt.escrowId,
    leg: attempt.leg,
    deposit: attempt.subject,
  };
  const resent =
    !failure.reverted && deposit !== undefined && deposit.resolvedAt === null && details.sender != null;
  const raised = await raiseStaffAlert(deps, {
    kind: foreignReturnFailedAlert,
    subject: attempt.subject,
    message: failureMessage(attempt, failure, resent),
    details: { ...details, return_transaction: attempt.txRef, error: failure.error },
  });
  const chain = deps.chains.get(attempt.chain);
  const { token, amount, transaction_hash: txRef } = details;
  if (!raised || attempt.txRef === null || !attempt.escrowId || !chain) return;
  if (typeof amount !== 'string' || typeof txRef !== 'string') return;
  await appendEscrowDealEvent(deps, attempt.escrowId, {
    actorId: null,
    action: 'foreign_deposit_return_failed',
    payload: {
      ...foreignDepositPayload(
        chain,
        { escrowId: attempt.escrowId, leg: attempt.leg },
        { tokenAddress: typeof token === 'string' ? token : null, amount: BigInt(amount), txRef },
      ),
      return_transaction: attempt.txRef,
    },
  });
}
