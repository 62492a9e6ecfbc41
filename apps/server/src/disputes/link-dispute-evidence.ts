import { schema } from '@covenant/db';
import type { Transaction } from '../deals/append-deal-event.js';
import type { StoredEvidence } from './store-dispute-evidence.js';

/** Links stored evidence to a dispute; returns what the audit entry records of each file. */
export async function linkDisputeEvidence(
  tx: Transaction,
  disputeId: string,
  uploadedBy: string,
  stored: readonly StoredEvidence[],
  now: Date,
): Promise<{ id: string; filename: string; sha256: string }[]> {
  if (stored.length === 0) return [];
  const rows = await tx
    .insert(schema.disputeEvidence)
    .values(stored.map(({ file }) => ({ disputeId, fileId: file.id, uploadedBy, createdAt: now })))
    .returning({ id: schema.disputeEvidence.id, fileId: schema.disputeEvidence.fileId });
  return stored.map(({ file, sha256 }) => ({
    id: rows.find((row) => row.fileId === file.id)!.id,
    filename: file.filename,
    sha256,
  }));
}
