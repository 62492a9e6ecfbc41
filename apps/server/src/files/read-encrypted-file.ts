import { createDecipheriv } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import type { FileStore } from './file-store.js';
import type { StoredFile } from './store-encrypted-file.js';

/**
 * Reads and decrypts a stored file. GCM checks both the wrapped key and the content: a changed byte
 * on disk or in the row throws instead of returning altered content.
 */
export async function readEncryptedFile(
  store: FileStore,
  db: Db,
  id: string,
): Promise<{ file: StoredFile; content: Buffer }> {
  const [file] = await db.select().from(schema.storedFiles).where(eq(schema.storedFiles.id, id));
  if (!file) throw new AppError('NOT_FOUND', 'File not found');
  const aad = Buffer.from(file.id);
  const dataKey = unwrapKey(store.masterKey, Buffer.from(file.wrappedKey, 'base64'), aad);
  const ciphertext = await readFile(join(store.directory, file.id));
  const decipher = createDecipheriv('aes-256-gcm', dataKey, Buffer.from(file.iv, 'base64'))
    .setAAD(aad)
    .setAuthTag(Buffer.from(file.authTag, 'base64'));
  const content = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  return { file, content };
}

function unwrapKey(masterKey: Buffer, wrapped: Buffer, aad: Buffer): Buffer {
  const iv = wrapped.subarray(0, 12);
  const tag = wrapped.subarray(wrapped.length - 16);
  const decipher = createDecipheriv('aes-256-gcm', masterKey, iv).setAAD(aad).setAuthTag(tag);
  return Buffer.concat([decipher.update(wrapped.subarray(12, wrapped.length - 16)), decipher.final()]);
}
