import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { readEncryptedFile } from '../files/read-encrypted-file.js';
import type { StoredFile } from '../files/store-encrypted-file.js';
import type { TravelDeps } from './travel-deps.js';

/**
 * The file attached to a travel item, decrypted. The caller has already decided that the reader may
 * see the item (a party of its deal, or the concierge); `dealId` narrows the lookup for the parties' route.
 */
export async function readTravelFile(
  deps: Pick<TravelDeps, 'db' | 'fileStore'>,
  where: { itemId: string; dealId?: string },
): Promise<{ file: StoredFile; content: Buffer }> {
  const items = schema.travelItems;
  const [link] = await deps.db
    .select({ fileId: schema.storedFiles.id })
    .from(items)
    .innerJoin(schema.storedFiles, eq(schema.storedFiles.id, items.quoteFileId))
    .where(
      and(
        eq(items.id, where.itemId),
        eq(schema.storedFiles.purpose, 'travel_quote'),
        where.dealId === undefined ? undefined : eq(items.dealId, where.dealId),
      ),
    );
  if (!link) throw new AppError('NOT_FOUND', 'This travel item has no file');
  return readEncryptedFile(deps.fileStore, deps.db, link.fileId);
}
