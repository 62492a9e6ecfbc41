import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { readEncryptedFile } from '../files/read-encrypted-file.js';
import type { StoredFile } from '../files/store-encrypted-file.js';
import type { CisDeps } from './cis-deps.js';
import { type DealParty, readPartyDeal } from './deal-party.js';

/** The signed PDF of the sheet `party` attached to one of the caller's deals (either side's). */
export async function readDealCisPdf(
  deps: Pick<CisDeps, 'db' | 'fileStore'>,
  userId: string,
  dealId: string,
  party: DealParty,
): Promise<{ file: StoredFile; content: Buffer }> {
  await readPartyDeal(deps.db, userId, dealId);
  const [attached] = await deps.db
    .select({ pdfFileId: schema.cisSheets.pdfFileId })
    .from(schema.dealCis)
    .innerJoin(schema.cisSheets, eq(schema.cisSheets.id, schema.dealCis.cisId))
    .where(and(eq(schema.dealCis.dealId, dealId), eq(schema.dealCis.party, party)));
  if (!attached?.pdfFileId) throw new AppError('NOT_FOUND', 'CIS PDF not found');
  return readEncryptedFile(deps.fileStore, deps.db, attached.pdfFileId);
}
