import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { readEncryptedFile } from '../files/read-encrypted-file.js';
import type { StoredFile } from '../files/store-encrypted-file.js';
import type { CisDeps } from './cis-deps.js';
import { type DealParty, readPartyDeal } from './deal-party.js';

/**
 * The signed PDF of the sheet `party` attached to one of the caller's deals: its own, or the
 * counterparty's once the caller has attached a sheet too (ADR 022; NOT_FOUND before, as if none
 * were attached).
 */
export async function readDealCisPdf(
  deps: Pick<CisDeps, 'db' | 'fileStore'>,
  userId: string,
  dealId: string,
  party: DealParty,
): Promise<{ file: StoredFile; content: Buffer }> {
  const viewer = await readPartyDeal(deps.db, userId, dealId);
  const attached = await deps.db
    .select({ party: schema.dealCis.party, pdfFileId: schema.cisSheets.pdfFileId })
    .from(schema.dealCis)
    .innerJoin(schema.cisSheets, eq(schema.cisSheets.id, schema.dealCis.cisId))
    .where(eq(schema.dealCis.dealId, dealId));
  const own = attached.find((link) => link.party === viewer.party);
  const wanted = attached.find((link) => link.party === party);
  if (!own || !wanted?.pdfFileId) throw new AppError('NOT_FOUND', 'CIS PDF not found');
  return readEncryptedFile(deps.fileStore, deps.db, wanted.pdfFileId);
}
