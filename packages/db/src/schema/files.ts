import { index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { createdAt } from './timestamps.js';

/**
 * Files uploaded by users (KYC documents, CIS files, dispute evidence, chat attachments), encrypted at rest. The ciphertext lives
 * in `DATA_DIR/files/<id>`; this row holds what is needed to decrypt and check it: the file's own
 * data key wrapped by the master key, and the IV and GCM tag of the content.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    id: uuid('id').primaryKey(),
    /** The user who uploaded it; null for a live chat visitor who is not signed in. */
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    /** What the file is for, e.g. 'kyc_document'; reading code checks it. */
    purpose: text('purpose').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    /** base64 of IV (12 bytes) ‖ data key encrypted with AES-256-GCM under the master key ‖ tag (16). */
    wrappedKey: text('wrapped_key').notNull(),
    /** base64 IV and GCM tag of the content encrypted with the data key. */
    iv: text('iv').notNull(),
    authTag: text('auth_tag').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('stored_files_owner_id_idx').on(table.ownerId)],
);
