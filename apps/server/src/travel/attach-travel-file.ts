import { createHash } from 'node:crypto';
import { schema } from '@covenant/db';
import { AppError, type StaffTravelItem } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { appendDealEvent } from '../deals/append-deal-event.js';
import { detectContentType } from '../files/detect-content-type.js';
import { discardEncryptedFile } from '../files/discard-encrypted-file.js';
import { storeEncryptedFile } from '../files/store-encrypted-file.js';
import { lockTravelItem, requireTravelStatus } from './lock-travel-item.js';
import { loadTravelItem } from './present-travel-items.js';
import type { TravelFileUpload } from './read-travel-form.js';
import type { TravelDeps } from './travel-deps.js';

/**
 * The concierge attaches the provider's quote or the booking confirmation to an item (any status but
 * cancelled; a new file replaces the shown one, the audit trail keeps each file's SHA-256). Only a PDF,
 * PNG or JPEG by its first bytes; stored encrypted before the transaction, discarded if it fails.
 */
export async function attachTravelFile(
  deps: TravelDeps,
  conciergeId: string,
  itemId: string,
  upload: TravelFileUpload,
): Promise<StaffTravelItem> {
  const contentType = detectContentType(upload.content);
  if (!contentType) {
    throw new AppError('VALIDATION_FAILED', 'The file must be a PDF, PNG or JPEG file', {
      issues: [{ path: '/file', message: `${upload.filename} is not a PDF, PNG or JPEG file` }],
    });
  }
  const [exists] = await deps.db
    .select({ id: schema.travelItems.id })
    .from(schema.travelItems)
    .where(eq(schema.travelItems.id, itemId));
  if (!exists) throw new AppError('NOT_FOUND', 'Travel item not found');

  const file = await storeEncryptedFile(deps.fileStore, deps.db, {
    ownerId: conciergeId,
    purpose: 'travel_quote',
    filename: upload.filename,
    contentType,
    content: upload.content,
  });
  const now = deps.now();
  try {
    await deps.db.transaction(async (tx) => {
      const { item, deal } = await lockTravelItem(tx, itemId);
      requireTravelStatus(
        item,
        ['requested', 'quoted', 'approved', 'paid', 'booked'],
        'A file can be attached',
      );
      await tx
        .update(schema.travelItems)
        .set({ quoteFileId: file.id, updatedAt: now })
        .where(eq(schema.travelItems.id, itemId));
      await appendDealEvent(tx, {
        dealId: deal.id,
        actorId: conciergeId,
        action: 'travel_file_attached',
        payload: {
          item_id: itemId,
          filename: file.filename,
          sha256: createHash('sha256').update(upload.content).digest('hex'),
        },
        createdAt: now,
      });
    });
  } catch (error) {
    // The item was not changed; the file must not outlive the attempt.
    await deps.db.delete(schema.storedFiles).where(eq(schema.storedFiles.id, file.id));
    await discardEncryptedFile(deps.fileStore, file.id);
    throw error;
  }
  return loadTravelItem(deps.db, itemId);
}
