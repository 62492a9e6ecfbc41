import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { readEncryptedFile } from '../files/read-encrypted-file.js';
import type { StoredFile } from '../files/store-encrypted-file.js';
import type { KycDeps } from './kyc-deps.js';

/** A document of a submission, decrypted, for compliance staff to look at. */
export async function readKycDocument(
  deps: Pick<KycDeps, 'db' | 'fileStore'>,
  submissionId: string,
  documentId: string,
): Promise<{ file: StoredFile; content: Buffer }> {
  const [link] = await deps.db
    .select({ fileId: schema.kycDocuments.fileId })
    .from(schema.kycDocuments)
    .where(
      and(eq(schema.kycDocuments.submissionId, submissionId), eq(schema.kycDocuments.fileId, documentId)),
    );
  if (!link) throw new AppError('NOT_FOUND', 'Document not found');
  return readEncryptedFile(deps.fileStore, deps.db, link.fileId);
}
