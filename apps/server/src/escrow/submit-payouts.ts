import { schema } from '@covenant/db';
import { type PartySignature, PayoutExpiredError, type SignedTransaction } from '@covenant/escrow';
import { and, eq, inArray } from 'drizzle-orm';
import { crashIfAt } from './escrow-crash-point.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { type PayoutRow, plannedDepositsOf, setLegState, storedTransactionOf } from './escrow-rows.js';
import { legsStillLocked } from './legs-still-locked.js';
import { unsignedPayoutOf } from './payout-variants.js';
import { renewExpiredPayout } from './renew-expired-payout.js';
import { raiseStaffAlert } from './staff-alerts.js';
import { renewTravelPayout } from './travel-payouts.js';

/**
 * Sends approved payouts, each exactly once. A settlement is atomic across the deal: its two legs go
 * only when both giving parties have approved and the deal is still funded (not disputed). The
 * platform co-signs, the relayer's signed transaction is stored with its hash (`submitting`), and
 * only then broadcast; after a crash anywhere in between, the next pass re-sends the same stored
 * bytes, or co-signs again (deterministic signatures) when nothing was stored, and the escrow
 * contract refuses a second payout anyway.
 */
export async function submitPayouts(deps: EscrowEngineDeps): Promise<string[]> {
  const touched = new Set<string>();
  const stored = await deps.db
    .select()
    .from(schema.escrowPayouts)
    .where(eq(schema.escrowPayouts.status, 'submitting'));
  for (const payout of stored) {
    await broadcastStored(deps, payout);
    touched.add(payout.escrowId);
  }
  const ready = await deps.db
    .select({ payout: schema.escrowPayouts, dealStatus: schema.deals.status })
    .from(schema.escrowPayouts)
    .innerJoin(schema.escrows, eq(schema.escrows.id, schema.escrowPayouts.escrowId))
    .innerJoin(schema.deals, eq(schema.deals.id, schema.escrows.dealId))
    .where(eq(schema.escrowPayouts.status, 'ready'));
  // A settlement or a mediator's release or split whose first payout is already on its way (a crash,
  // or a send that failed, came between the legs) is committed: its other legs go on their own.
  const paired = (payout: PayoutRow) =>
    (payout.source === 'settlement' || payout.source === 'mediator') && payout.kind !== 'refund';
  const pairing = [
    ...new Set(ready.filter(({ payout }) => paired(payout)).map(({ payout }) => payout.escrowId)),
  ];
  const started =
    pairing.length === 0
      ? []
      : await deps.db
          .select({ escrowId: schema.escrowPayouts.escrowId, source: schema.escrowPayouts.source })
          .from(schema.escrowPayouts)
          .where(
            and(
              inArray(schema.escrowPayouts.escrowId, pairing),
              inArray(schema.escrowPayouts.source, ['settlement', 'mediator']),
              inArray(schema.escrowPayouts.status, ['submitting', 'submitted', 'confirmed']),
            ),
          );
  const locked = new Map<string, boolean>();
  for (const { payout, dealStatus } of ready) {
    // A dispute freezes travel payouts not sent yet: the mediator's decision supersedes them.
    if (payout.source === 'travel' && dealStatus !== 'escrow_funded') continue;
    const legsStarted = started.filter(
      (other) => other.escrowId === payout.escrowId && other.source === payout.source,
    );
    if (payout.source === 'settlement') {
      if (dealStatus !== 'escrow_funded') continue;
      const legsReady = ready.filter(
        (other) => other.payout.escrowId === payout.escrowId && other.payout.source === 'settlement',
      );
      if (legsReady.length + legsStarted.length < 2) continue;
    }
    // Before the first leg goes, every leg must still be held for the deal (legs-still-locked.ts).
    if (paired(payout) && legsStarted.length === 0) {
      let stillLocked = locked.get(payout.escrowId);
      if (stillLocked === undefined) {
        stillLocked = await legsStillLocked(deps, payout.escrowId);
        locked.set(payout.escrowId, stillLocked);
      }
      if (!stillLocked) continue;
    }
    const chain = deps.chains.get(payout.chain);
    if (chain && (await chain.relayerTurn(() => cosignAndSend(deps, payout)))) touched.add(payout.escrowId);
  }
  return [...touched];
}

async function cosignAndSend(deps: EscrowEngineDeps, payout: PayoutRow): Promise<boolean> {
  const chain = deps.chains.get(payout.chain);
  if (!chain) return false;
  const signatures = await deps.db
    .select()
    .from(schema.escrowPayoutSignatures)
    .where(eq(schema.escrowPayoutSignatures.payoutId, payout.id));
  // The first party to approve is the one whose version is carried out (where the chain has one per party).
  const party = signatures
    .filter((row) => row.signer !== 'platform')
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.signer.localeCompare(b.signer))[0];
  if (!party || party.signer === 'platform') return false;
  const unsigned = unsignedPayoutOf(payout, party.signer);
  let platform = signatures.find((row) => row.signer === 'platform');
  if (!platform) {
    const [leg] = await deps.db
      .select({
        platformSigner: schema.escrowLegs.platformSigner,
        platformKeyIndex: schema.escrowLegs.platformKeyIndex,
      })
      .from(schema.escrowLegs)
      .where(and(eq(schema.escrowLegs.escrowId, payout.escrowId), eq(schema.escrowLegs.leg, payout.leg)));
    if (!leg) return false;
    const signature = await chain.adapter.cosign(unsigned, leg.platformKeyIndex);
    [platform] = await deps.db
      .insert(schema.escrowPayoutSignatures)
      .values({
        payoutId: payout.id,
        signer: 'platform',
        signerAddress: leg.platformSigner,
        signature,
        createdAt: deps.now(),
      })
      .onConflictDoNothing()
      .returning();
    platform ??= (
      await deps.db
        .select()
        .from(schema.escrowPayoutSignatures)
        .where(
          and(
            eq(schema.escrowPayoutSignatures.payoutId, payout.id),
            eq(schema.escrowPayoutSignatures.signer, 'platform'),
          ),
        )
    )[0];
  }
  if (!platform) return false;
  const pair: PartySignature[] = [
    { signer: party.signer, signature: party.signature },
    { signer: 'platform', signature: platform.signature },
  ];
  let signed: SignedTransaction;
  try {
    signed = await chain.adapter.signPayoutTransaction(unsigned, pair);
  } catch (error) {
    if (error instanceof PayoutExpiredError) {
      // A travel payout is built again from its quote by the next pass, and approved again.
      if (payout.source === 'travel') {
        await renewTravelPayout(deps, payout, error.message);
        return true;
      }
      await renewExpiredPayout(deps, payout, error.message);
      return true;
    }
    return handleRefused(deps, payout, error);
  }
  const marked = await deps.db
    .update(schema.escrowPayouts)
    .set({
      status: 'submitting',
      rawTransaction: signed.rawTransaction,
      txRef: signed.txRef,
      submittedAt: deps.now(),
      updatedAt: deps.now(),
    })
    .where(and(eq(schema.escrowPayouts.id, payout.id), eq(schema.escrowPayouts.status, 'ready')))
    .returning();
  if (marked.length === 0) return false;
  // A late deposit's return leaves the settled leg's state as it is; travel leaves it funded.
  if (payout.source !== 'late_deposit' && payout.source !== 'travel') {
    await setLegState(
      deps.db,
      payout.escrowId,
      payout.leg,
      payout.kind === 'refund' ? 'refunding' : 'releasing',
      deps.now(),
    );
  }
  await crashIfAt(
    deps.crashAt,
    'after-cosign',
    `payout ${payout.id} of the ${payout.leg} leg on ${payout.chain} stored, not broadcast`,
  );
  await broadcastStored(deps, marked[0]!);
  return true;
}

async function broadcastStored(deps: EscrowEngineDeps, payout: PayoutRow): Promise<void> {
  const chain = deps.chains.get(payout.chain);
  const stored = storedTransactionOf(payout);
  if (!chain || !stored) return;
  try {
    await chain.adapter.broadcast(stored);
  } catch (error) {
    deps.logger.warn(
      { err: error, payoutId: payout.id },
      'broadcast failed; the next pass checks the chain and retries',
    );
    await resignIfStale(deps, payout);
    return;
  }
  await crashIfAt(
    deps.crashAt,
    payout.kind === 'refund' ? 'mid-refund' : 'after-submit',
    `payout ${payout.id} broadcast as ${stored.txRef}, not recorded as sent`,
  );
  await deps.db
    .update(schema.escrowPayouts)
    .set({ status: 'submitted', updatedAt: deps.now() })
    .where(and(eq(schema.escrowPayouts.id, payout.id), inArray(schema.escrowPayouts.status, ['submitting'])));
}

/** The chain refused the payout (the call would revert): settled by someone else, or wrong. Staff look. */
async function handleRefused(deps: EscrowEngineDeps, payout: PayoutRow, error: unknown): Promise<boolean> {
  const message = error instanceof Error ? error.message : String(error);
  deps.logger.warn({ payoutId: payout.id, err: error }, 'payout refused by the chain');
  await raiseStaffAlert(deps, {
    kind: 'payout_refused',
    subject: payout.id,
    message: 'The chain refuses a payout the parties approved',
    details: { escrow_id: payout.escrowId, leg: payout.leg, kind: payout.kind, error: message.slice(0, 500) },
  });
  return false;
}

/**
 * A stored transaction the node refuses and has never seen (its nonce was used meanwhile, say) is
 * signed again with a fresh nonce. Unless the leg is already settled (on a UTXO chain: the deposit
 * outputs the payout spends were spent by a mined transaction): then some other transaction paid it
 * out (Bitcoin's buyer and seller signing one of their own, ADR 019), this payout can never be sent,
 * it fails and staff are alerted.
 */
async function resignIfStale(deps: EscrowEngineDeps, payout: PayoutRow): Promise<void> {
  const chain = deps.chains.get(payout.chain);
  if (!chain || !payout.txRef) return;
  const status = await chain.adapter.confirmations(payout.txRef);
  if (status.state !== 'unknown') return;
  const [leg] = await deps.db
    .select()
    .from(schema.escrowLegs)
    .where(and(eq(schema.escrowLegs.escrowId, payout.escrowId), eq(schema.escrowLegs.leg, payout.leg)));
  if (!leg) return;
  if (await chain.adapter.isSettled(leg, plannedDepositsOf(payout))) {
    const failed = await deps.db
      .update(schema.escrowPayouts)
      .set({ status: 'failed', error: 'the leg was paid out by another transaction', updatedAt: deps.now() })
      .where(and(eq(schema.escrowPayouts.id, payout.id), eq(schema.escrowPayouts.status, 'submitting')))
      .returning({ id: schema.escrowPayouts.id });
    if (failed.length > 0) {
      await raiseStaffAlert(deps, {
        kind: 'leg_spent_elsewhere',
        subject: payout.id,
        message: 'The leg was paid out by a transaction the engine did not build; its payout cannot be sent',
        details: {
          escrow_id: payout.escrowId,
          leg: payout.leg,
          kind: payout.kind,
          transaction_hash: payout.txRef,
        },
      });
    }
    return;
  }
  await deps.db
    .update(schema.escrowPayouts)
    .set({ status: 'ready', rawTransaction: null, txRef: null, updatedAt: deps.now() })
    .where(and(eq(schema.escrowPayouts.id, payout.id), eq(schema.escrowPayouts.status, 'submitting')));
}
