import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { type Leg, meetsPolicy } from '@covenant/escrow';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { EscrowChain } from './escrow-chains.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import {
  appendEscrowDealEvent,
  type ForeignDeposit,
  foreignDepositAlert,
  foreignDepositPayload,
  foreignReturnFailed,
  foreignReturnFailedAlert,
  tokenOf,
} from './foreign-deposit-events.js';
import {
  type RelayerTransactionRow,
  revertedOnChain,
  sendRelayerTransaction,
} from './relayer-transactions.js';
import { raiseStaffAlert, resolveStaffAlert, type StaffAlertRow } from './staff-alerts.js';

export type Party = 'buyer' | 'seller';

type LegRow = typeof schema.escrowLegs.$inferSelect;

/** The party who gives a leg: the seller the asset, the buyer the stable. */
function depositorOf(leg: Leg): Party {
  return leg === 'asset' ? 'seller' : 'buyer';
}

/** Where a party is paid back from this leg: the depositor's refund address, or the receiver's payout address. */
function returnAddressOf(leg: LegRow, party: Party): string {
  return depositorOf(leg.leg) === party ? leg.depositorRefundAddress : leg.receiverPayoutAddress;
}

/**
 * Which party sent a deposit from `from`, by the addresses on the leg's chain the party itself gave
 * the deal: its connected signer (proven by its signature) and its refund and payout addresses in the
 * terms of each leg on that chain. The senders of earlier deposits do not count: money withdrawn from
 * an exchange comes from the exchange's shared wallets, which would name a party for anyone's
 * deposit. Null when the address is neither's (or, which should not happen, both's): nobody but
 * staff can then say whose money it is.
 */
export async function senderOfForeignDeposit(
  deps: Pick<EscrowEngineDeps, 'db'>,
  leg: LegRow,
  from: string | null,
): Promise<Party | null> {
  if (from === null) return null;
  const legs = await deps.db
    .select()
    .from(schema.escrowLegs)
    .where(and(eq(schema.escrowLegs.escrowId, leg.escrowId), eq(schema.escrowLegs.chain, leg.chain)));
  const known: Record<Party, Set<string>> = { buyer: new Set(), seller: new Set() };
  for (const row of legs) {
    const depositor = depositorOf(row.leg);
    const receiver: Party = depositor === 'buyer' ? 'seller' : 'buyer';
    known.buyer.add(row.buyerSigner.toLowerCase());
    known.seller.add(row.sellerSigner.toLowerCase());
    known[depositor].add(row.depositorRefundAddress.toLowerCase());
    known[receiver].add(row.receiverPayoutAddress.toLowerCase());
  }
  const address = from.toLowerCase();
  const byBuyer = known.buyer.has(address);
  const bySeller = known.seller.has(address);
  if (byBuyer === bySeller) return null;
  return byBuyer ? 'buyer' : 'seller';
}

/** The node refused to build a return (its estimate failed: the call would revert, or it did not answer): nothing was sent. */
class ReturnRefused extends Error {
  readonly reason: string;
  constructor(cause: unknown) {
    const short =
      cause instanceof Error ? ((cause as { shortMessage?: string }).shortMessage ?? cause.message) : '';
    const reason = short.split('\n')[0]?.slice(0, 300) || 'no reason given';
    super(`the node refused the return: ${reason}`, { cause });
    this.reason = reason;
  }
}

/**
 * Sends a foreign deposit back to `party` at its address in the leg's terms, signed by the platform
 * alone (the contract allows no other address on that signature), once per deposit, and records it
 * in the deal's history. Null when a return of this deposit is already on its way or done.
 */
async function returnForeignDeposit(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  leg: LegRow,
  deposit: ForeignDeposit,
  decision: { party: Party; staffId: string | null },
): Promise<RelayerTransactionRow | null> {
  const signReturn = chain.adapter.signReturnForeignAsset;
  if (!signReturn) return null;
  const to = returnAddressOf(leg, decision.party);
  const sent = await sendRelayerTransaction(
    deps,
    chain,
    {
      kind: 'foreign_asset_return',
      subject: `${deposit.txRef}:${deposit.position}`,
      escrowId: leg.escrowId,
      leg: leg.leg,
      depositAddress: leg.depositAddress,
    },
    () =>
      signReturn
        .call(chain.adapter, leg.depositAddress, {
          txRef: deposit.txRef,
          position: deposit.position,
          tokenAddress: deposit.tokenAddress,
          amount: deposit.amount,
          to,
        })
        .catch((error: unknown) => {
          throw new ReturnRefused(error);
        }),
  );
  if (!sent) return null;
  await appendEscrowDealEvent(deps, leg.escrowId, {
    actorId: decision.staffId,
    action: 'foreign_deposit_returned',
    payload: {
      ...foreignDepositPayload(chain, leg, deposit),
      to: decision.party,
      to_address: to,
      return_transaction: sent.txRef,
      decided_by: decision.staffId ? 'staff' : 'sender_address',
    },
  });
  return sent;
}

/**
 * The engine's return of a foreign deposit to the party whose address sent it. When the node refuses
 * to build it, staff are alerted with the node's reason (once while open) and the next full pass
 * tries again (`retryForeignReturns`) until it goes or staff resolve the deposit's alert.
 */
async function returnBySender(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  leg: LegRow,
  deposit: ForeignDeposit,
  sender: Party,
): Promise<void> {
  try {
    await returnForeignDeposit(deps, chain, leg, deposit, { party: sender, staffId: null });
  } catch (error) {
    deps.logger.warn({ err: error, escrowId: leg.escrowId }, 'returning a wrong-token deposit failed');
    if (!(error instanceof ReturnRefused)) return;
    await foreignReturnFailed(
      deps,
      {
        chain: leg.chain,
        subject: `${deposit.txRef}:${deposit.position}`,
        escrowId: leg.escrowId,
        leg: leg.leg,
        txRef: null,
      },
      { error: error.reason, reverted: false },
    );
  }
}

/**
 * A deposit of another asset than the leg's (a configured token sent to the wrong escrow): never the
 * leg's money. Where the chain's escrow can return it alone (Ethereum) it goes back to the party
 * who sent it, when the sending address is one that party gave the deal; from any other address it
 * is held for staff, who return it to the party who shows it was theirs
 * (`returnHeldForeignDeposit`). Staff are alerted either way; the parties see it in their history.
 */
export async function handleForeignDeposit(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  deposit: ForeignDeposit & { blockRef: string | null },
): Promise<void> {
  const { watched } = deposit;
  const subject = `${deposit.txRef}:${deposit.position}`;
  // Seen again (a rescan after a reorg) once its return is on its way or done: nothing more to say.
  const returning = await deps.db
    .select({ status: schema.escrowRelayerTransactions.status })
    .from(schema.escrowRelayerTransactions)
    .where(
      and(
        eq(schema.escrowRelayerTransactions.chain, chain.adapter.chain),
        eq(schema.escrowRelayerTransactions.kind, 'foreign_asset_return'),
        eq(schema.escrowRelayerTransactions.subject, subject),
        inArray(schema.escrowRelayerTransactions.status, ['submitting', 'submitted', 'confirmed']),
      ),
    );
  if (returning.length > 0) return;
  const [leg] = await deps.db
    .select()
    .from(schema.escrowLegs)
    .where(and(eq(schema.escrowLegs.escrowId, watched.escrowId), eq(schema.escrowLegs.leg, watched.leg)));
  if (!leg) return;
  const canReturn = chain.adapter.signReturnForeignAsset !== undefined;
  const sender = canReturn ? await senderOfForeignDeposit(deps, leg, deposit.from) : null;
  const asset = tokenOf(chain, deposit.tokenAddress)?.symbol ?? deposit.tokenAddress ?? 'the chain’s coin';
  const message = !canReturn
    ? `A deposit of another token (${asset}) reached the ${watched.leg} leg's escrow; staff return it by hand`
    : sender
      ? `A deposit of another token (${asset}) reached the ${watched.leg} leg's escrow from the ${sender}; it is sent back to the ${sender}'s address in the terms once it is confirmed`
      : `A deposit of another token (${asset}) reached the ${watched.leg} leg's escrow from ${deposit.from ?? 'an unknown sender'}, an address of neither party; it is held until staff return it to the party who sent it`;
  const details: ForeignDepositDetails = {
    escrow_id: watched.escrowId,
    leg: watched.leg,
    token: deposit.tokenAddress,
    amount: deposit.amount.toString(),
    transaction_hash: deposit.txRef,
    log_index: deposit.position,
    block_ref: deposit.blockRef,
    from: deposit.from,
    sender,
  };
  const raised = await raiseStaffAlert(deps, { kind: foreignDepositAlert, subject, message, details });
  if (!raised) {
    // Seen again in another block (a reorg): its depth is counted from there.
    await deps.db
      .update(schema.staffAlerts)
      .set({ details })
      .where(
        and(
          eq(schema.staffAlerts.kind, foreignDepositAlert),
          eq(schema.staffAlerts.subject, subject),
          isNull(schema.staffAlerts.resolvedAt),
          sql`${schema.staffAlerts.details}->>'block_ref' is distinct from ${deposit.blockRef}`,
        ),
      );
  }
  if (!canReturn) return;
  if (sender) {
    // Sent once the deposit is as deep as a deposit must be to count; usually by a later pass.
    if ((await depthOf(chain, details)) === 'deep') await returnBySender(deps, chain, leg, deposit, sender);
    return;
  }
  if (raised) {
    await appendEscrowDealEvent(deps, watched.escrowId, {
      actorId: null,
      action: 'foreign_deposit_held',
      payload: { ...foreignDepositPayload(chain, leg, deposit), from: deposit.from },
    });
  }
}

/**
 * Whether a foreign deposit is as deep as a deposit of the leg's own asset must be to count (the
 * chain's confirmation policy) in the block it was last seen in: only then may it go back, so a
 * reorg cannot make the escrow pay back a deposit that never arrived, nor one seen again at
 * another position (a new subject) be paid back twice. `moved`: its transaction is deep in another
 * block, where the watcher saw it again (that sighting's alert is the live one).
 */
async function depthOf(
  chain: EscrowChain,
  details: Pick<ForeignDepositDetails, 'transaction_hash' | 'block_ref'>,
): Promise<'deep' | 'waiting' | 'moved'> {
  const status = await chain.adapter.confirmations(details.transaction_hash);
  if (status.state !== 'included' || !meetsPolicy(chain.adapter.confirmationPolicy, status)) return 'waiting';
  if (details.block_ref && status.blockRef !== details.block_ref) return 'moved';
  return 'deep';
}

/** A wrong-token alert's details, as `handleForeignDeposit` writes them. */
const foreignDepositDetails = z.object({
  escrow_id: z.uuid(),
  leg: z.enum(['asset', 'stable']),
  token: z.string().nullable(),
  amount: z.string().regex(/^[1-9]\d{0,77}$/),
  transaction_hash: z.string(),
  log_index: z.number().int().nonnegative(),
  /** The block it was last seen in; absent on alerts raised before it was recorded. */
  block_ref: z.string().nullable().optional(),
  from: z.string().nullable(),
  sender: z.enum(['buyer', 'seller']).nullable(),
});
type ForeignDepositDetails = z.infer<typeof foreignDepositDetails>;

/** The leg, its chain (one that can return another token) and the deposit an alert names; null when it cannot be returned. */
async function alertedDeposit(deps: EscrowEngineDeps, details: ForeignDepositDetails) {
  const [leg] = await deps.db
    .select()
    .from(schema.escrowLegs)
    .where(and(eq(schema.escrowLegs.escrowId, details.escrow_id), eq(schema.escrowLegs.leg, details.leg)));
  const chain = leg ? deps.chains.get(leg.chain) : undefined;
  if (!leg || !chain?.adapter.signReturnForeignAsset) return null;
  const deposit: ForeignDeposit = {
    watched: {
      escrowId: leg.escrowId,
      leg: leg.leg,
      depositAddress: leg.depositAddress,
      tokenAddress: leg.tokenAddress,
    },
    tokenAddress: details.token,
    amount: BigInt(details.amount),
    txRef: details.transaction_hash,
    position: details.log_index,
    from: details.from,
  };
  return { leg, chain, deposit };
}

/**
 * Sends the returns the watcher decided on and that have not reached the chain: an open wrong-token
 * alert naming its sender, with no return of that deposit on its way or done, once the deposit is
 * deep enough (`depthOf`) — the first time, or again when the node did not answer while it signed
 * (no return stored) or the return was never mined (refused by the node, its lifetime ended). One
 * that was mined and reverted is left to staff: sending the same again would revert the same way
 * unless something changed (its own alert says so). Each full engine pass; the open alerts are few.
 */
export async function retryForeignReturns(deps: EscrowEngineDeps): Promise<void> {
  const relayed = schema.escrowRelayerTransactions;
  const alerts = await deps.db
    .select()
    .from(schema.staffAlerts)
    .where(
      and(
        eq(schema.staffAlerts.kind, foreignDepositAlert),
        isNull(schema.staffAlerts.resolvedAt),
        sql`${schema.staffAlerts.details}->>'sender' is not null`,
        sql`not exists (select 1 from ${relayed} where ${relayed.kind} = 'foreign_asset_return' and ${relayed.subject} = ${schema.staffAlerts.subject} and (${relayed.status} <> 'failed' or ${relayed.error} = ${revertedOnChain}))`,
      ),
    );
  for (const alert of alerts) {
    const details = foreignDepositDetails.safeParse(alert.details);
    if (!details.success || details.data.sender === null) continue;
    const found = await alertedDeposit(deps, details.data);
    if (!found) continue;
    const depth = await depthOf(found.chain, details.data);
    if (depth === 'moved') {
      // Seen again at another position of its new block: the alert of that sighting carries it.
      await resolveStaffAlert(deps, { id: alert.id });
      continue;
    }
    if (depth === 'waiting') continue;
    await returnBySender(deps, found.chain, found.leg, found.deposit, details.data.sender);
  }
}

/**
 * Whether staff may send the deposit an alert names: a wrong-token deposit the engine held (its
 * sender was no address of either party), or one whose return failed (whoever decided it).
 */
function returnableByStaff(alert: StaffAlertRow, details: ForeignDepositDetails): boolean {
  if (alert.kind === foreignDepositAlert) return details.sender === null;
  return alert.kind === foreignReturnFailedAlert;
}

/**
 * Staff's return of a foreign deposit to the party who showed it was theirs: one the engine held
 * (its sender was no address of either party), or one whose return failed on-chain. The alert names
 * the deposit, the return goes to that party's address in the leg's terms (the contract accepts no
 * other address on the platform's signature alone, and returns each deposit once), and the
 * deposit's open alerts are resolved. 404 for an alert that is not open; 409 for one that is
 * neither, one whose return is already on its way or done, or one the chain refuses to return
 * (nothing is sent then; the node's reason is given).
 */
export async function returnHeldForeignDeposit(
  deps: EscrowEngineDeps,
  input: { alertId: string; party: Party; staffId: string },
): Promise<{ alert: StaffAlertRow; returnTransaction: string; to: string }> {
  const [alert] = await deps.db
    .select()
    .from(schema.staffAlerts)
    .where(and(eq(schema.staffAlerts.id, input.alertId), isNull(schema.staffAlerts.resolvedAt)));
  if (!alert) throw new AppError('NOT_FOUND', 'No open alert with this id');
  const details = foreignDepositDetails.safeParse(alert.details);
  if (!details.success || !returnableByStaff(alert, details.data)) {
    throw new AppError(
      'CONFLICT',
      'This alert is not a wrong-token deposit held for staff or one whose return failed',
    );
  }
  const { sender } = details.data;
  if (sender !== null && input.party !== sender) {
    // The engine named the sender by an address that party gave the deal: it goes back to them only.
    throw new AppError(
      'CONFLICT',
      `This deposit came from the ${sender}'s address: it can only be returned to the ${sender}`,
      { sender },
    );
  }
  const found = await alertedDeposit(deps, details.data);
  if (!found) throw new AppError('CONFLICT', 'This escrow cannot return another token by itself');
  const { leg, chain, deposit } = found;
  const depth = await depthOf(chain, details.data);
  if (depth !== 'deep') {
    throw new AppError(
      'CONFLICT',
      depth === 'waiting'
        ? 'This deposit is not confirmed yet: it can be returned once it is as deep as a deposit must be to count'
        : 'This deposit’s transaction is now in another block: return it from the alert raised for it there',
      { reason: depth === 'waiting' ? 'deposit_not_confirmed' : 'deposit_moved' },
    );
  }
  let sent: RelayerTransactionRow | null;
  try {
    sent = await returnForeignDeposit(deps, chain, leg, deposit, {
      party: input.party,
      staffId: input.staffId,
    });
  } catch (error) {
    if (!(error instanceof ReturnRefused)) throw error;
    deps.logger.warn({ err: error, alert: alert.id }, 'staff return of a wrong-token deposit refused');
    throw new AppError(
      'CONFLICT',
      `The chain’s node refused this return, so nothing was sent: ${error.reason}`,
    );
  }
  if (!sent) throw new AppError('CONFLICT', 'A return of this deposit is already on its way or done');
  const resolved = await resolveStaffAlert(deps, { id: alert.id }, input.staffId);
  for (const kind of [foreignDepositAlert, foreignReturnFailedAlert]) {
    await resolveStaffAlert(deps, { kind, subject: alert.subject }, input.staffId);
  }
  return { alert: resolved ?? alert, returnTransaction: sent.txRef, to: returnAddressOf(leg, input.party) };
}
