import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { readEncryptedFile } from '../files/read-encrypted-file.js';
import type { StoredFile } from '../files/store-encrypted-file.js';
import type { DisputeDeps } from './dispute-deps.js';

/**
 * An evidence file of a dispute, decrypted. The caller has already decided that the reader may see
 * the dispute (a party of its deal, or a mediator); `dealId` narrows the lookup for the parties' route.
 */
export async function readDisputeEvidence(
  deps: Pick<DisputeDeps, 'db' | 'fileStore'>,
  where: { disputeId: string; evidenceId: string; dealId?: string },
): Promise<{ file: StoredFile; content: Buffer }> {
  const [link] = await deps.db
    .select({ fileId: schema.disputeEvidence.fileId })
    .from(schema.disputeEvidence)
    .innerJoin(schema.dealDisputes, eq(schema.dealDisputes.id, schema.disputeEvidence.disputeId))
    .innerJoin(schema.storedFiles, eq(schema.storedFiles.id, schema.disputeEvidence.fileId))
    .where(
      and(
        eq(schema.disputeEvidence.id, where.evidenceId),
        eq(schema.disputeEvidence.disputeId, where.disputeId),
        eq(schema.storedFiles.purpose, 'dispute_evidence'),
        where.dealId === undefined ? undefined : eq(schema.dealDisputes.dealId, where.dealId),
      ),
    );
  if (!link) throw new AppError('NOT_FOUND', 'Evidence not found');
  return readEncryptedFile(deps.fileStore, deps.db, link.fileId);
}
