import { type Db, schema } from '@covenant/db';
import {
  type Dispute,
  type DisputeAmounts,
  type DisputeEffect,
  disputeAmountsSchema,
} from '@covenant/domain';
import { asc, eq, inArray, type SQL } from 'drizzle-orm';

/** Disputes matching `where`, oldest first, each with its evidence's metadata (never the content). */
export async function loadDisputes(db: Pick<Db, 'select'>, where: SQL | undefined): Promise<Dispute[]> {
  const rows = await db
    .select()
    .from(schema.dealDisputes)
    .where(where)
    .orderBy(asc(schema.dealDisputes.createdAt), asc(schema.dealDisputes.id));
  if (rows.length === 0) return [];
  const evidence = await db
    .select({ link: schema.disputeEvidence, file: schema.storedFiles })
    .from(schema.disputeEvidence)
    .innerJoin(schema.storedFiles, eq(schema.storedFiles.id, schema.disputeEvidence.fileId))
    .where(
      inArray(
        schema.disputeEvidence.disputeId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(schema.disputeEvidence.createdAt), asc(schema.storedFiles.filename));
  return rows.map((row) => ({
    id: row.id,
    deal_id: row.dealId,
    status: row.status,
    reason: row.reason,
    opened_by: row.openedBy,
    status_before: row.statusBefore,
    mediator_id: row.mediatorId,
    evidence: evidence
      .filter(({ link }) => link.disputeId === row.id)
      .map(({ link, file }) => ({
        id: link.id,
        filename: file.filename,
        content_type: file.contentType,
        size: file.size,
        uploaded_by: link.uploadedBy,
        created_at: link.createdAt.toISOString(),
      })),
    decision: row.decision,
    amounts: amountsOf(row.decisionDetails),
    effect: row.status === 'decided' ? effectOf(row.decisionDetails) : null,
    rationale: row.rationale,
    decided_by: row.decidedBy,
    decided_at: row.decidedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  }));
}

/** A decided dispute's effect: stored with the details when it cancelled the deal, else the escrow's payout. */
function effectOf(details: Record<string, unknown> | null): DisputeEffect {
  return details?.effect === 'deal_cancelled' ? 'deal_cancelled' : 'escrow_payout';
}

function amountsOf(details: Record<string, unknown> | null): DisputeAmounts | null {
  const parsed = disputeAmountsSchema.safeParse(details);
  return parsed.success ? parsed.data : null;
}
