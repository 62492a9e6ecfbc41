import { schema } from '@covenant/db';
import { AppError, type CanonicalValue } from '@covenant/domain';
import type { DepositMovement, Leg } from '@covenant/escrow';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { appendDealEvent } from '../deals/append-deal-event.js';
import type { EscrowChain } from './escrow-chains.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { type RelayerTransactionRow, sendRelayerTransaction } from './relayer-transactions.js';
import { raiseStaffAlert } from './staff-alerts.js';

export type Party = 'buyer' | 'seller';

type LegRow = typeof schema.escrowLegs.$inferSelect;

/** A deposit of an asset its escrow does not hold for the deal, as the watcher saw it. */
export type ForeignDeposit = Pick<
  DepositMovement,
  'watched' | 'tokenAddress' | 'amount' | 'txRef' | 'position' | 'from'
>;

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

/** A token's symbol on the chain, or its address when the platform does not trade it. */
function assetName(chain: EscrowChain, tokenAddress: string | null): string {
  const token = chain.info.tokens.find(
    (candidate) => (candidate.address ?? '').toLowerCase() === (tokenAddress ?? '').toLowerCase(),
  );
  return token?.symbol ?? tokenAddress ?? 'the chain’s coin';
}

/** The deal event's description of the deposit, for the parties' history and notifications. */
function depositPayload(chain: EscrowChain, deposit: ForeignDeposit): { [key: string]: CanonicalValue } {
  const token = chain.info.tokens.find(
    (candidate) => (candidate.address ?? '').toLowerCase() === (deposit.tokenAddress ?? '').toLowerCase(),
  );
  return {
    escrow_id: deposit.watched.escrowId,
    leg: deposit.watched.leg,
    symbol: token?.symbol ?? null,
    token: deposit.tokenAddress,
    amount: deposit.amount.toString(),
    deposit_transaction: deposit.txRef,
  };
}

async function appendEscrowDealEvent(
  deps: EscrowEngineDeps,
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
      signReturn.call(chain.adapter, leg.depositAddress, {
        txRef: deposit.txRef,
        position: deposit.position,
        tokenAddress: deposit.tokenAddress,
        amount: deposit.amount,
        to,
      }),
  );
  if (!sent) return null;
  await appendEscrowDealEvent(deps, leg.escrowId, {
    actorId: decision.staffId,
    action: 'foreign_deposit_returned',
    payload: {
      ...depositPayload(chain, deposit),
      to: decision.party,
      to_address: to,
      return_transaction: sent.txRef,
      decided_by: decision.staffId ? 'staff' : 'sender_address',
    },
  });
  return sent;
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
  deposit: ForeignDeposit,
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
  const asset = assetName(chain, deposit.tokenAddress);
  const message = !canReturn
    ? `A deposit of another token (${asset}) reached the ${watched.leg} leg's escrow; staff return it by hand`
    : sender
      ? `A deposit of another token (${asset}) reached the ${watched.leg} leg's escrow from the ${sender}; it is being sent back to the ${sender}'s address in the terms`
      : `A deposit of another token (${asset}) reached the ${watched.leg} leg's escrow from ${deposit.from ?? 'an unknown sender'}, an address of neither party; it is held until staff return it to the party who sent it`;
  const raised = await raiseStaffAlert(deps, {
    kind: 'wrong_token_deposit',
    subject,
    message,
    details: {
      escrow_id: watched.escrowId,
      leg: watched.leg,
      token: deposit.tokenAddress,
      amount: deposit.amount.toString(),
      transaction_hash: deposit.txRef,
      log_index: deposit.position,
      from: deposit.from,
      sender,
    },
  });
  if (!canReturn) return;
  if (sender) {
    try {
      await returnForeignDeposit(deps, chain, leg, deposit, { party: sender, staffId: null });
    } catch (error) {
      deps.logger.warn(
        { err: error, escrowId: watched.escrowId },
        'returning a wrong-token deposit failed; staff alerted',
      );
    }
    return;
  }
  if (raised) {
    await appendEscrowDealEvent(deps, watched.escrowId, {
      actorId: null,
      action: 'foreign_deposit_held',
      payload: { ...depositPayload(chain, deposit), from: deposit.from },
    });
  }
}

/** A wrong-token alert's details, as `handleForeignDeposit` writes them. */
const foreignDepositDetails = z.object({
  escrow_id: z.uuid(),
  leg: z.enum(['asset', 'stable']),
  token: z.string().nullable(),
  amount: z.string().regex(/^[1-9]\d{0,77}$/),
  transaction_hash: z.string(),
  log_index: z.number().int().nonnegative(),
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
 * Sends again the returns the watcher decided on and could not send (the node did not answer while it
 * signed): an open wrong-token alert naming its sender, with no return of that deposit stored in any
 * state. One that was sent and failed on-chain is left to staff (its own alert says why). Each full
 * engine pass; the open alerts are few.
 */
export async function retryForeignReturns(deps: EscrowEngineDeps): Promise<void> {
  const relayed = schema.escrowRelayerTransactions;
  const alerts = await deps.db
    .select()
    .from(schema.staffAlerts)
    .where(
      and(
        eq(schema.staffAlerts.kind, 'wrong_token_deposit'),
        isNull(schema.staffAlerts.resolvedAt),
        sql`${schema.staffAlerts.details}->>'sender' is not null`,
        sql`not exists (select 1 from ${relayed} where ${relayed.kind} = 'foreign_asset_return' and ${relayed.subject} = ${schema.staffAlerts.subject})`,
      ),
    );
  for (const alert of alerts) {
    const details = foreignDepositDetails.safeParse(alert.details);
    if (!details.success || details.data.sender === null) continue;
    const found = await alertedDeposit(deps, details.data);
    if (!found) continue;
    try {
      await returnForeignDeposit(deps, found.chain, found.leg, found.deposit, {
        party: details.data.sender,
        staffId: null,
      });
    } catch (error) {
      deps.logger.warn({ err: error, alert: alert.id }, 'returning a wrong-token deposit failed again');
    }
  }
}

/**
 * Staff's return of a foreign deposit the engine held (its sender was no address of either party)
 * to the party who showed it was theirs: the alert names the deposit, the return goes to that
 * party's address in the leg's terms, and the alert is resolved. 404 for an alert that is not open;
 * 409 for one that is not a held foreign deposit, or one whose return is already on its way.
 */
export async function returnHeldForeignDeposit(
  deps: EscrowEngineDeps,
  input: { alertId: string; party: Party; staffId: string },
): Promise<{ alert: typeof schema.staffAlerts.$inferSelect; returnTransaction: string; to: string }> {
  const [alert] = await deps.db
    .select()
    .from(schema.staffAlerts)
    .where(and(eq(schema.staffAlerts.id, input.alertId), isNull(schema.staffAlerts.resolvedAt)));
  if (!alert) throw new AppError('NOT_FOUND', 'No open alert with this id');
  const details = foreignDepositDetails.safeParse(alert.details);
  if (alert.kind !== 'wrong_token_deposit' || !details.success || details.data.sender !== null) {
    throw new AppError('CONFLICT', 'This alert is not a wrong-token deposit held for staff');
  }
  const found = await alertedDeposit(deps, details.data);
  if (!found) throw new AppError('CONFLICT', 'This escrow cannot return another token by itself');
  const { leg, chain, deposit } = found;
  const sent = await returnForeignDeposit(deps, chain, leg, deposit, {
    party: input.party,
    staffId: input.staffId,
  });
  if (!sent) throw new AppError('CONFLICT', 'A return of this deposit is already on its way or done');
  const [resolved] = await deps.db
    .update(schema.staffAlerts)
    .set({ resolvedAt: deps.now() })
    .where(and(eq(schema.staffAlerts.id, alert.id), isNull(schema.staffAlerts.resolvedAt)))
    .returning();
  return { alert: resolved ?? alert, returnTransaction: sent.txRef, to: returnAddressOf(leg, input.party) };
}
