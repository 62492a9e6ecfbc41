import { type Db, schema } from '@covenant/db';
import { AppError, type ChatAttachment, chatAttachmentRules } from '@covenant/domain';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import type { Transaction } from '../deals/append-deal-event.js';
import { detectContentType } from '../files/detect-content-type.js';
import { discardStoredFiles } from '../files/discard-encrypted-file.js';
import { readEncryptedFile } from '../files/read-encrypted-file.js';
import type { FileUpload } from '../files/read-upload-form.js';
import { type StoredFile, storeEncryptedFile } from '../files/store-encrypted-file.js';
import type { ChatDeps } from './chat-deps.js';

export const chatAttachmentPurpose = 'chat_attachment';

/** What the form reader takes for a chat message: one `file` (dispute evidence's size) and its text. */
export const chatAttachmentForm = {
  fileField: 'file',
  textFields: ['body'],
  maxFiles: 1,
  maxBytes: chatAttachmentRules.maxBytes,
  // 4000 characters of up to 4 UTF-8 bytes each, with room for whitespace that is trimmed.
  fieldSize: 32_000,
  tooLarge: 'A file must be at most 10 MB',
  tooMany: 'Attach one file per message',
  fallbackName: 'file',
} as const;

export function presentChatAttachment(
  file: Pick<StoredFile, 'id' | 'filename' | 'contentType' | 'size'>,
): ChatAttachment {
  return { id: file.id, filename: file.filename, content_type: file.contentType, size: file.size };
}

/** Refuses anything that is not a PDF, PNG or JPEG by its first bytes, as dispute evidence is. */
export function checkChatAttachment(upload: FileUpload): FileUpload & { contentType: string } {
  const contentType = detectContentType(upload.content);
  if (!contentType) {
    const message = `${upload.filename} is not a PDF, PNG or JPEG file`;
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Attach a PDF, PNG or JPEG file', {
      issues: [{ path: '/file', message }],
    });
  }
  return { ...upload, contentType };
}

/**
 * Refuses a file once the conversation holds as many as allowed (from both sides). Inside the
 * transaction that records the message the conversation's row is locked first, so two uploads at
 * once cannot both take the last place.
 */
export async function ensureRoomForFile(
  db: Db | Transaction,
  conversationId: string,
  limit: number,
  options: { lock?: boolean } = {},
): Promise<void> {
  if (options.lock) {
    await db
      .select({ id: schema.chatConversations.id })
      .from(schema.chatConversations)
      .where(eq(schema.chatConversations.id, conversationId))
      .for('update');
  }
  const [row] = await db
    .select({ files: count() })
    .from(schema.chatMessages)
    .where(
      and(eq(schema.chatMessages.conversationId, conversationId), isNotNull(schema.chatMessages.fileId)),
    );
  if ((row?.files ?? 0) >= limit) {
    throw new AppError(
      'CONFLICT',
      `A conversation holds at most ${limit} files; start a new one to send more`,
      {
        reason: 'chat_files_limit',
        limit,
      },
    );
  }
}

/**
 * Encrypts and stores a checked file before the transaction that records its message, so the
 * conversation is not held locked while it is written. `record` runs that transaction; if it fails
 * the file is discarded.
 */
export async function withStoredChatAttachment<T>(
  deps: Pick<ChatDeps, 'db' | 'fileStore'>,
  upload: (FileUpload & { contentType: string }) | undefined,
  ownerId: string | null,
  record: (file: StoredFile | null) => Promise<T>,
): Promise<T> {
  if (!upload) return record(null);
  const file = await storeEncryptedFile(deps.fileStore, deps.db, {
    ownerId,
    purpose: chatAttachmentPurpose,
    filename: upload.filename,
    contentType: upload.contentType,
    content: upload.content,
  });
  try {
    return await record(file);
  } catch (error) {
    await discardStoredFiles(deps.fileStore, deps.db, [file.id]);
    throw error;
  }
}

/**
 * A file sent in a conversation, decrypted. The caller has already decided that the reader may see
 * the conversation (its visitor by token, or support staff); a file of another conversation is 404.
 */
export async function readChatAttachment(
  deps: Pick<ChatDeps, 'db' | 'fileStore'>,
  where: { conversationId: string; attachmentId: string },
): Promise<{ file: StoredFile; content: Buffer }> {
  const [link] = await deps.db
    .select({ fileId: schema.chatMessages.fileId })
    .from(schema.chatMessages)
    .innerJoin(schema.storedFiles, eq(schema.storedFiles.id, schema.chatMessages.fileId))
    .where(
      and(
        eq(schema.chatMessages.fileId, where.attachmentId),
        eq(schema.chatMessages.conversationId, where.conversationId),
        eq(schema.storedFiles.purpose, chatAttachmentPurpose),
      ),
    );
  if (!link?.fileId) throw new AppError('NOT_FOUND', 'No file with this id in the conversation');
  return readEncryptedFile(deps.fileStore, deps.db, link.fileId);
}
