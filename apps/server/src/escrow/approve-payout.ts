import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { type Leg, legDepositor, legGivenBy } from '@covenant/escrow';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { loadMeetingRecords, settlementWaits } from '../meetings/meeting-state.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { type LegRow, type PayoutRow, receivedOf } from './escrow-rows.js';
import { findLeg, findPartyEscrow } from './find-party-escrow.js';
import { unsignedPayoutOf } from './payout-variants.js';

type Party = 'buyer' | 'seller';

/** Payout statuses of a payout on its way out of its leg, or out of it. */
export const sentPayoutStatuses = ['submitting', 'submitted', 'confirmed'] as const;

/** A settlement's or a mediator's release or split: one payout per leg, carried out together. */
export function pairedPayout(payout: Pick<PayoutRow, 'source' | 'kind'>): boolean {
  return (payout.source === 'settlement' || payout.source === 'mediator') && payout.kind !== 'refund';
}

/**
 * Who may approve a payout besides the platform: the depositor for the deal's own release and for
 * a cancelled deal's refund (the party giving the money, or getting it back); either party for a
 * mediator's decision, so the decision is carried out whichever side cooperates, and for a late
 * deposit's return, whose destination (the depositor's refund address) is fixed. Either party too
 * for a leg of a settlement another leg of which has gone out (`committed`): that leg is owed, and
 * its content is the engine's, fixed by the terms, so the party it pays may approve it when it had
 * to be built again (its signed form expired) and the depositor, paid already, does not.
 */
export function eligibleSigners(payout: Pick<PayoutRow, 'source'>, leg: Leg, committed = false): Party[] {
  return committed || payout.source === 'mediator' || payout.source === 'late_deposit'
    ? ['buyer', 'seller']
    : [legDepositor[leg]];
}

/** Whether another leg's payout of the same settlement (or mediator release or split) has gone out. */
export async function committedPayout(
  db: EscrowEngineDeps['db'],
  payout: Pick<PayoutRow, 'escrowId' | 'source' | 'kind' | 'leg'>,
): Promise<boolean> {
  if (!pairedPayout(payout)) return false;
  const started = await db
    .select({ id: schema.escrowPayouts.id })
    .from(schema.escrowPayouts)
    .where(
      and(
        eq(schema.escrowPayouts.escrowId, payout.escrowId),
        eq(schema.escrowPayouts.source, payout.source),
        ne(schema.escrowPayouts.leg, payout.leg),
        inArray(schema.escrowPayouts.status, [...sentPayoutStatuses]),
      ),
    )
    .limit(1);
  return started.length > 0;
}

/** What a `signature` approval is on each chain that takes one. */
function signatureFormOn(chain: string): string {
  return chain === 'SOL' ? 'your ed25519 signature of the message' : 'the EIP-712 signature';
}

/**
 * A party's approval as posted: an EIP-712 signature (Ethereum), the signed PSBT in base64
 * (Bitcoin), an ed25519 signature of the transaction message (Solana).
 */
export type Approval = { signature: string } | { psbt: string };

/** The approval form a payout's signing payload takes: a PSBT when the payload says so, else a signature. */
export function approvalFormOf(payout: Pick<PayoutRow, 'signingPayload'>): 'psbt' | 'signature' {
  return (payout.signingPayload as { format?: unknown }).format === 'psbt' ? 'psbt' : 'signature';
}

/**
 * Which payout an approval is for: a deal's leg, or (the documented alias) an escrow and the
 * approving party's side, meaning the leg that side gives.
 */
export type ApprovalTarget = { dealId: string; leg: Leg } | { escrowId: string; side: Party };

/** Why a leg of a deal in this status has nothing to approve until the engine prepares its payout. */
const closedDealMessages: Partial<Record<string, string>> = {
  cancelled: 'The deal was cancelled: the refunds of its deposits are being prepared',
  completed: 'The deal is completed: its payouts are being prepared',
  disputed: 'The deal is in dispute: the payouts follow the mediator’s decision',
};

/**
 * A party's approval of a leg's payout (`POST /escrow/release`): the signature must recover to the
 * party's key in the leg's custody, over exactly the payout the engine prepared. Stored once; the
 * payout is then ready for the platform's co-signature.
 */
export async function approvePayout(
  deps: EscrowEngineDeps,
  userId: string,
  target: ApprovalTarget,
  approval: Approval,
): Promise<{ escrowId: string }> {
  const found = await findPartyEscrow(
    deps.db,
    userId,
    'escrowId' in target ? { escrowId: target.escrowId } : { dealId: target.dealId },
  );
  const { party } = found;
  if ('side' in target && target.side !== party) {
    throw new AppError('FORBIDDEN', `You are the ${party} of this deal: approve with \`side\` ${party}`, {
      side: target.side,
    });
  }
  const input = { leg: 'leg' in target ? target.leg : legGivenBy[party], approval };
  const leg = await findLeg(deps.db, found.escrow.id, input.leg);
  const live = await deps.db
    .select()
    .from(schema.escrowPayouts)
    .where(
      and(
        eq(schema.escrowPayouts.escrowId, found.escrow.id),
        eq(schema.escrowPayouts.leg, input.leg),
        ne(schema.escrowPayouts.status, 'superseded'),
      ),
    );
  // The one awaiting approval (a late deposit's return comes after the leg's own payout), else the leg's own.
  // Travel payouts are approved with their travel item (`approve-travel-payout.ts`), never here.
  const own = live.filter((row) => row.source !== 'travel');
  const payout =
    own.find((row) => row.status === 'collecting' || row.status === 'ready') ??
    own.find((row) => row.source !== 'late_deposit');
  if (!payout) {
    const [deal] = await deps.db
      .select({ status: schema.deals.status, meetingRequired: schema.deals.meetingRequired })
      .from(schema.deals)
      .where(eq(schema.deals.id, found.escrow.dealId));
    const closed = deal ? closedDealMessages[deal.status] : undefined;
    if (closed) throw new AppError('DEAL_NOT_ACTIVE', closed, { leg: input.leg, status: deal?.status });
    const deposits = await deps.db
      .select()
      .from(schema.escrowLedgerEntries)
      .where(
        and(
          eq(schema.escrowLedgerEntries.escrowId, found.escrow.id),
          eq(schema.escrowLedgerEntries.leg, input.leg),
        ),
      );
    const available = receivedOf(leg, deposits);
    if (available < BigInt(leg.requiredAmount)) {
      throw new AppError('INSUFFICIENT_BALANCE', 'This leg is not fully funded yet', {
        required: leg.requiredAmount,
        available: available.toString(),
        chain: leg.chain,
      });
    }
    if (deal && settlementWaits(deal, await loadMeetingRecords(deps.db, found.escrow.dealId))) {
      throw new AppError(
        'MEETING_PENDING',
        'Settlement waits for the meeting: both parties check in there, or both waive it',
        { leg: input.leg },
      );
    }
    throw new AppError(
      'INVALID_STATE_TRANSITION',
      'Nothing to approve on this leg yet: the other leg is not funded',
      {
        leg: input.leg,
      },
    );
  }
  if (!eligibleSigners(payout, input.leg, await committedPayout(deps.db, payout)).includes(party)) {
    throw new AppError('FORBIDDEN', 'The other party approves this leg’s payout', { leg: input.leg });
  }
  if (payout.status !== 'collecting' && payout.status !== 'ready') {
    throw new AppError('INVALID_STATE_TRANSITION', 'This payout has already been sent', {
      status: payout.status,
    });
  }
  await verifyAndStoreApproval(deps, payout, leg, party, input.approval, { ready: true });
  return { escrowId: found.escrow.id };
}

/**
 * Checks a party's approval of `payout` against the party's key in the leg's custody, over exactly
 * the payout the engine built (in the party's own version where the chain has one per party), and
 * stores it (with `ready`, the payout is then ready to send, in the same transaction). Throws
 * APPROVAL_FORM_MISMATCH, INVALID_SIGNATURE, or CONFLICT when the payout was built again meanwhile.
 */
export async function verifyAndStoreApproval(
  deps: Pick<EscrowEngineDeps, 'db' | 'chains' | 'now'>,
  payout: PayoutRow,
  leg: Pick<LegRow, 'chain' | 'buyerSigner' | 'sellerSigner'>,
  party: Party,
  input: Approval,
  options: { ready: boolean } = { ready: false },
): Promise<void> {
  const chain = deps.chains.get(payout.chain);
  if (!chain) throw new AppError('NOT_IMPLEMENTED', `Escrow on ${payout.chain} is not available`);
  const form = approvalFormOf(payout);
  const approval = 'psbt' in input ? input.psbt : input.signature;
  if (('psbt' in input ? 'psbt' : 'signature') !== form) {
    throw new AppError(
      'APPROVAL_FORM_MISMATCH',
      form === 'psbt'
        ? `This leg is on ${leg.chain}: approve it with the signed PSBT (\`psbt\`), not a signature`
        : `This leg is on ${leg.chain}: approve it with ${signatureFormOn(leg.chain)} (\`signature\`), not a PSBT`,
      { issues: [{ path: form === 'psbt' ? '/signature' : '/psbt', message: `expected \`${form}\`` }] },
    );
  }
  const expected = party === 'buyer' ? leg.buyerSigner : leg.sellerSigner;
  const check = await chain.adapter.verifyApproval(unsignedPayoutOf(payout, party), approval, expected);
  if (!check.valid) {
    throw new AppError(
      'INVALID_SIGNATURE',
      form === 'psbt'
        ? 'The PSBT is not this payout signed by your escrow key'
        : 'The signature is not your escrow key’s approval of this payout',
      {
        expected_signer: expected,
        recovered_signer: check.signer,
        reason: check.reason,
      },
    );
  }
  await storeApproval(deps, payout, { party, signerAddress: expected, signature: check.signature }, options);
}

/**
 * Stores a verified approval of `payout` with the payout locked, as it was verified: the engine may
 * have built it again meanwhile (its signed form expired), and a signature over the old form would
 * hold the new one back (CONFLICT `payout_changed`). With `ready`, the payout is then ready to send,
 * in the same transaction.
 */
export async function storeApproval(
  deps: Pick<EscrowEngineDeps, 'db' | 'now'>,
  payout: Pick<PayoutRow, 'id' | 'payoutRef'>,
  approval: { party: Party; signerAddress: string; signature: string },
  options: { ready: boolean },
): Promise<void> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ payoutRef: schema.escrowPayouts.payoutRef, status: schema.escrowPayouts.status })
      .from(schema.escrowPayouts)
      .where(eq(schema.escrowPayouts.id, payout.id))
      .for('update');
    if (current?.payoutRef !== payout.payoutRef) {
      throw new AppError(
        'CONFLICT',
        'The payout was built again while you approved it: review the new one and approve it again',
        { reason: 'payout_changed' },
      );
    }
    if (current.status !== 'collecting' && current.status !== 'ready') {
      throw new AppError('INVALID_STATE_TRANSITION', 'This payout has already been sent', {
        status: current.status,
      });
    }
    await tx
      .insert(schema.escrowPayoutSignatures)
      .values({
        payoutId: payout.id,
        signer: approval.party,
        signerAddress: approval.signerAddress,
        signature: approval.signature,
        createdAt: now,
      })
      .onConflictDoNothing();
    if (options.ready) {
      await tx
        .update(schema.escrowPayouts)
        .set({ status: 'ready', updatedAt: now })
        .where(and(eq(schema.escrowPayouts.id, payout.id), eq(schema.escrowPayouts.status, 'collecting')));
    }
  });
}
