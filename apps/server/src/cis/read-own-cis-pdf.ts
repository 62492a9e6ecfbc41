import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { readEncryptedFile } from '../files/read-encrypted-file.js';
import type { StoredFile } from '../files/store-encrypted-file.js';
import type { CisDeps } from './cis-deps.js';

/** The signed PDF of one of the caller's own sheets; anybody else's sheet is NOT_FOUND. */
export async function readOwnCisPdf(
  deps: Pick<CisDeps, 'db' | 'fileStore'>,
  ownerId: string,
  cisId: string,
): Promise<{ file: StoredFile; content: Buffer }> {
  const [sheet] = await deps.db
    .select({ pdfFileId: schema.cisSheets.pdfFileId })
    .from(schema.cisSheets)
    .where(and(eq(schema.cisSheets.id, cisId), eq(schema.cisSheets.ownerId, ownerId)));
  if (!sheet?.pdfFileId) throw new AppError('NOT_FOUND', 'CIS PDF not found');
  return readEncryptedFile(deps.fileStore, deps.db, sheet.pdfFileId);
}
