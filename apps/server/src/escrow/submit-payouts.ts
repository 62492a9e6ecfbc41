import { schema } from '@covenant/db';
import { type PartySignature, PayoutExpiredError, type SignedTransaction } from '@covenant/escrow';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { pairedPayout, sentPayoutStatuses } from './approve-payout.js';
import { adoptDeadlineRefund } from './enforce-deadlines.js';
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
 * only when both giving parties have approved, the deal is still funded (not disputed), and every
 * leg's payout still signs (`everyLegSigns`: one whose signed form expired is built again and
 * approved again first, so a depositor cannot have the other leg paid and then withhold its own);
 * once one leg has gone the others are owed and go whatever happens to the deal, approved by
 * either party if one must be built again (`eligibleSigners`). The
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
  // or a send that failed, came between the legs) is committed: its other legs go on their own,
  // whatever the deal's status has become meanwhile.
  const pairing = [
    ...new Set(ready.filter(({ payout }) => pairedPayout(payout)).map(({ payout }) => payout.escrowId)),
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
              inArray(schema.escrowPayouts.status, [...sentPayoutStatuses]),
            ),
          );
  const locked = new Map<string, boolean>();
  for (const { payout, dealStatus } of ready) {
    // A dispute freezes travel payouts not sent yet: the mediator's decision supersedes them.
    if (payout.source === 'travel' && dealStatus !== 'escrow_funded') continue;
    const legsStarted = started.filter(
      (other) => other.escrowId === payout.escrowId && other.source === payout.source,
    );
    const first = pairedPayout(payout) && legsStarted.length === 0;
    if (payout.source === 'settlement' && first) {
      if (dealStatus !== 'escrow_funded') continue;
      const legsReady = ready.filter(
        (other) => other.payout.escrowId === payout.escrowId && other.payout.source === 'settlement',
      );
      if (legsReady.length < 2) continue;
    }
    if (first) {
      const group = `${payout.escrowId}:${payout.source}`;
      // Before the first leg goes, every leg must still be held for the deal (legs-still-locked.ts)
      // and every leg's payout must still sign: a leg whose signed form expired (a deposit landed
      // after it was built) is built again and approved again, and no leg goes meanwhile.
      let go = locked.get(group);
      if (go === undefined) {
        go = (await legsStillLocked(deps, payout.escrowId)) && (await everyLegSigns(deps, payout));
        locked.set(group, go);
      }
      if (!go) continue;
    }
    const chain = deps.chains.get(payout.chain);
    if (!chain) continue;
    // A payout that fails here (a node error while co-signing, say) leaves the others to go; the next
    // pass tries it again.
    const outcome = await chain
      .relayerTurn(() =>
        cosignAndSend(deps, payout, { firstOfSettlement: first && payout.source === 'settlement' }),
      )
      .catch((error: unknown) => {
        deps.logger.warn({ err: error, payoutId: payout.id }, 'a payout could not be sent; next pass');
        return 'not_sent' as const;
      });
    if (outcome !== 'not_sent') touched.add(payout.escrowId);
    // A group whose first leg did not go (it expired since, or the deal was disputed) waits whole.
    if (first && outcome !== 'sent') locked.set(`${payout.escrowId}:${payout.source}`, false);
  }
  return [...touched];
}

/**
 * Whether every leg of the payout's group (its settlement, or its mediator's release or split) is
 * ready and signs now, read afresh: the list the pass started from may be stale. A leg whose signed
 * form expired is built again (`renewExpiredPayout`), one the chain refuses is for staff; either
 * holds every leg back.
 */
async function everyLegSigns(deps: EscrowEngineDeps, payout: PayoutRow): Promise<boolean> {
  const group = await deps.db
    .select()
    .from(schema.escrowPayouts)
    .where(
      and(
        eq(schema.escrowPayouts.escrowId, payout.escrowId),
        eq(schema.escrowPayouts.source, payout.source),
        ne(schema.escrowPayouts.status, 'superseded'),
      ),
    );
  if (group.some((leg) => leg.status !== 'ready')) return false;
  for (const leg of group) {
    const chain = deps.chains.get(leg.chain);
    if (!chain) return false;
    const signed = await chain
      .relayerTurn(() => signForSending(deps, leg))
      .catch((error: unknown) => {
        deps.logger.warn({ err: error, payoutId: leg.id }, 'a leg of the settlement could not be signed');
        return null;
      });
    if (signed === null || signed === 'renewed') return false;
  }
  return true;
}

/**
 * A payout's approvals by the parties (the platform's co-signature left out), the first given first:
 * its version is the one carried out where the chain has one per party. Equal times by signer.
 */
function partyApprovals<Row extends { signer: string; createdAt: Date }>(
  signatures: readonly Row[],
): (Row & { signer: 'buyer' | 'seller' })[] {
  return signatures
    .filter(
      (row): row is Row & { signer: 'buyer' | 'seller' } => row.signer === 'buyer' || row.signer === 'seller',
    )
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.signer.localeCompare(b.signer));
}

/**
 * The payout's transaction, co-signed by the platform over the first approving party's version and
 * signed by the relayer, ready to store and send; null when it cannot be sent now: no approval yet,
 * its signed form expired (built again: `renewExpiredPayout`, or the travel quote's), or the chain
 * refuses it (staff alerted).
 */
async function signForSending(
  deps: EscrowEngineDeps,
  payout: PayoutRow,
): Promise<SignedTransaction | 'renewed' | null> {
  const chain = deps.chains.get(payout.chain);
  if (!chain) return null;
  const signatures = await deps.db
    .select()
    .from(schema.escrowPayoutSignatures)
    .where(eq(schema.escrowPayoutSignatures.payoutId, payout.id));
  // The first party to approve is the one whose version is carried out (where the chain has one per party).
  const party = partyApprovals(signatures)[0];
  if (!party) return null;
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
    if (!leg) return null;
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
  if (!platform) return null;
  const pair: PartySignature[] = [
    { signer: party.signer, signature: party.signature },
    { signer: 'platform', signature: platform.signature },
  ];
  try {
    return await chain.adapter.signPayoutTransaction(unsigned, pair);
  } catch (error) {
    if (error instanceof PayoutExpiredError) {
      // A travel payout is built again from its quote by the next pass, and approved again.
      if (payout.source === 'travel') await renewTravelPayout(deps, payout, error.message);
      else await renewExpiredPayout(deps, payout, error);
      return 'renewed';
    }
    await handleRefused(deps, payout, error);
    return null;
  }
}

/**
 * Signs and sends an approved payout: stored with its transaction (`submitting`) before it is
 * broadcast. The first leg of a settlement is marked with the deal locked and still funded, so a
 * dispute opened at the same moment either comes first (nothing goes) or finds the settlement under
 * way (and is refused: `openDispute`).
 */
async function cosignAndSend(
  deps: EscrowEngineDeps,
  payout: PayoutRow,
  options: { firstOfSettlement: boolean },
): Promise<'sent' | 'renewed' | 'not_sent'> {
  const signed = await signForSending(deps, payout);
  if (signed === null) return 'not_sent';
  if (signed === 'renewed') return 'renewed';
  const marked = await deps.db.transaction(async (tx) => {
    if (options.firstOfSettlement) {
      const [deal] = await tx
        .select({ status: schema.deals.status })
        .from(schema.deals)
        .innerJoin(schema.escrows, eq(schema.escrows.dealId, schema.deals.id))
        .where(eq(schema.escrows.id, payout.escrowId))
        .for('update', { of: schema.deals });
      if (deal?.status !== 'escrow_funded') return [];
    }
    return tx
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
  });
  if (marked.length === 0) return 'not_sent';
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
  return 'sent';
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
    await resignIfStale(deps, payout, error);
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

/**
 * The chain refused the payout (the call would revert): a refund already taken after the deadline
 * is recorded as it (`adoptDeadlineRefund`); anything else, settled by someone else or wrong, is for
 * staff.
 */
async function handleRefused(deps: EscrowEngineDeps, payout: PayoutRow, error: unknown): Promise<boolean> {
  const message = error instanceof Error ? error.message : String(error);
  deps.logger.warn({ payoutId: payout.id, err: error }, 'payout refused by the chain');
  // A refund the depositor (or anyone) already took after the deadline: that transaction is it.
  const chain = deps.chains.get(payout.chain);
  const [leg] = await deps.db
    .select()
    .from(schema.escrowLegs)
    .where(and(eq(schema.escrowLegs.escrowId, payout.escrowId), eq(schema.escrowLegs.leg, payout.leg)));
  if (chain && leg && (await adoptDeadlineRefund(deps, chain, payout, leg))) return true;
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
 * signed again with a fresh nonce: an approved payout goes back to `ready`, a refund after the
 * deadline nobody approved back to `collecting`, where the deadline step sends it again. Unless the leg is already settled (on a UTXO chain: the deposit
 * outputs the payout spends were spent by a mined transaction): then some other transaction paid it
 * out (Bitcoin's buyer and seller signing one of their own, ADR 019), this payout can never be sent,
 * it fails and staff are alerted.
 */
async function resignIfStale(deps: EscrowEngineDeps, payout: PayoutRow, refusal: unknown): Promise<void> {
  const chain = deps.chains.get(payout.chain);
  if (!chain || !payout.txRef) return;
  const status = await chain.adapter.confirmations(payout.txRef);
  if (status.state !== 'unknown') return;
  const approvals = partyApprovals(
    await deps.db
      .select({
        signer: schema.escrowPayoutSignatures.signer,
        createdAt: schema.escrowPayoutSignatures.createdAt,
      })
      .from(schema.escrowPayoutSignatures)
      .where(eq(schema.escrowPayoutSignatures.payoutId, payout.id)),
  );
  if (chain.adapter.payoutMayStillLand) {
    // The RPC that refused it may have forwarded it: while it can still land it stays as it is and is
    // sent again by the next pass; built anew now, the one that lands later would go unrecorded.
    if (await chain.adapter.payoutMayStillLand(unsignedPayoutOf(payout, approvals[0]?.signer))) return;
    // It can no longer land: it did (its status shows by now), or another transaction used its nonce.
    if ((await chain.adapter.confirmations(payout.txRef)).state !== 'unknown') return;
  }
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
  // Back to where it was sent from: approved, or (a refund after the deadline, sent unsigned) still
  // collecting, where the deadline step sends it again.
  const reset = await deps.db
    .update(schema.escrowPayouts)
    .set({
      status: approvals.length > 0 ? 'ready' : 'collecting',
      rawTransaction: null,
      txRef: null,
      updatedAt: deps.now(),
    })
    .where(and(eq(schema.escrowPayouts.id, payout.id), eq(schema.escrowPayouts.status, 'submitting')))
    .returning({ id: schema.escrowPayouts.id });
  // Usually signed again and sent by the next pass (a nonce taken meanwhile); a refusal that lasts (a
  // Bitcoin fee below the node's minimum, signed into the PSBT) would otherwise repeat unseen.
  // Resolved once the payout is confirmed.
  if (reset.length > 0) {
    const reason = refusal instanceof Error ? refusal.message : String(refusal);
    await raiseStaffAlert(deps, {
      kind: 'payout_broadcast_refused',
      subject: payout.id,
      message: `The node refuses to relay a payout; it is signed again and sent each pass: ${reason.slice(0, 300)}`,
      details: {
        escrow_id: payout.escrowId,
        leg: payout.leg,
        kind: payout.kind,
        transaction_hash: payout.txRef,
        error: reason.slice(0, 500),
      },
    });
  }
}
