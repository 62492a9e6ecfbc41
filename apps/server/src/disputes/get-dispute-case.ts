import { schema } from '@covenant/db';
import { AppError, type StaffDisputeCase } from '@covenant/domain';
import { asc, eq } from 'drizzle-orm';
import { loadDealCis } from '../cis/load-deal-cis.js';
import { presentDeal, selectDealViews } from '../deals/deal-view.js';
import { getDealAuditForStaff } from '../deals/get-deal-audit.js';
import { escrowDecideBy } from '../escrow/escrow-decide-by.js';
import { loadLegsAfterTravel, loadShortLegs } from '../escrow/escrow-funding.js';
import { loadMeetingRecords, presentMeeting } from '../meetings/meeting-state.js';
import type { DisputeDeps } from './dispute-deps.js';
import { loadDisputes } from './present-disputes.js';

/**
 * Everything a mediator reads before deciding: the dispute with its evidence, the deal, both
 * parties' CIS, every version of the terms, the parties' messages and the audit trail verified afresh,
 * whether the escrow opened, which of its legs are short, what travel took out of them, and until when
 * its legs can be paid against each other (a release or split is refused when a leg is short or that
 * time has passed; a split, when a share exceeds what travel left).
 */
export async function getDisputeCase(
  deps: Pick<DisputeDeps, 'db' | 'fileStore' | 'now'>,
  disputeId: string,
): Promise<StaffDisputeCase> {
  const [dispute] = await loadDisputes(deps.db, eq(schema.dealDisputes.id, disputeId));
  if (!dispute) throw new AppError('NOT_FOUND', 'Dispute not found');
  const dealId = dispute.deal_id;
  const [[dealRow], cis, terms, messages, audit, meetingRecords, escrows] = await Promise.all([
    selectDealViews(deps.db, eq(schema.deals.id, dealId)),
    loadDealCis(deps, dealId),
    deps.db
      .select()
      .from(schema.dealTermsVersions)
      .where(eq(schema.dealTermsVersions.dealId, dealId))
      .orderBy(asc(schema.dealTermsVersions.version)),
    deps.db
      .select()
      .from(schema.dealMessages)
      .where(eq(schema.dealMessages.dealId, dealId))
      .orderBy(asc(schema.dealMessages.createdAt), asc(schema.dealMessages.id)),
    getDealAuditForStaff(deps.db, dealId),
    loadMeetingRecords(deps.db, dealId),
    deps.db.select({ id: schema.escrows.id }).from(schema.escrows).where(eq(schema.escrows.dealId, dealId)),
  ]);
  // Seen from neither side: the schema leaves out the counterparty presentDeal works out for a party.
  const deal = presentDeal(dealRow!, dealRow!.deal.buyerId);
  const escrowId = escrows[0]?.id;
  const [shortLegs, decideBy, afterTravel] = escrowId
    ? await Promise.all([
        loadShortLegs(deps.db, escrowId, { asset: deal.asset_amount, stable: deal.stable_amount }),
        escrowDecideBy(deps.db, escrowId),
        loadLegsAfterTravel(deps.db, escrowId),
      ])
    : [[], null, []];
  return {
    dispute,
    deal,
    cis,
    terms_versions: terms.map((version) => ({
      version: version.version,
      proposed_by: version.proposedBy,
      terms: version.terms,
      created_at: version.createdAt.toISOString(),
    })),
    messages: messages.map((message) => ({
      id: message.id,
      author_id: message.authorId,
      body: message.body,
      created_at: message.createdAt.toISOString(),
    })),
    audit,
    // Check-in positions are personal data: the parties and the mediators see them, nobody else.
    meeting: presentMeeting(deps.fileStore.masterKey, dealRow!.deal, meetingRecords, deps.now()),
    escrow_opened: escrowId !== undefined,
    escrow_short_legs: shortLegs,
    escrow_travel: afterTravel
      .filter((leg) => leg.travel > 0n)
      .map((leg) => ({
        leg: leg.leg,
        paid: leg.travel.toString(),
        charged_to_receiver: leg.charged.toString(),
        held: leg.held.toString(),
      })),
    escrow_decide_by: decideBy?.toISOString() ?? null,
  };
}
