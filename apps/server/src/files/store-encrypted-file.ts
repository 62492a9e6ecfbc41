import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Db, schema } from '@covenant/db';
import type { FileStore } from './file-store.js';

export interface FileToStore {
  /** Null for a live chat visitor who is not signed in. */
  ownerId: string | null;
  purpose: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

export type StoredFile = typeof schema.storedFiles.$inferSelect;

/**
 * Encrypts a file with a fresh AES-256-GCM data key, writes the ciphertext to the store and records
 * the wrapped key, IV and tag. The file's id is the additional authenticated data of both the content
 * and the wrapped key, so a ciphertext or key moved to another row fails to decrypt.
 * `db` may be a transaction: the file on disk is written first, the row last (see discardEncryptedFile).
 */
export async function storeEncryptedFile(
  store: FileStore,
  db: Pick<Db, 'insert'>,
  file: FileToStore,
): Promise<StoredFile> {
  const id = randomUUID();
  const aad = Buffer.from(id);
  const dataKey = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', dataKey, iv).setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(file.content), cipher.final()]);
  const authTag = cipher.getAuthTag();

  const path = join(store.directory, id);
  await writeFile(`${path}.partial`, ciphertext, { mode: 0o600 });
  await rename(`${path}.partial`, path);

  const [row] = await db
    .insert(schema.storedFiles)
    .values({
      id,
      ownerId: file.ownerId,
      purpose: file.purpose,
      filename: file.filename,
      contentType: file.contentType,
      size: file.content.length,
      wrappedKey: wrapKey(store.masterKey, dataKey, aad).toString('base64'),
      iv: iv.toString('base64'),
      authTag: authTag.toString('base64'),
    })
    .returning();
  return row!;
}

function wrapKey(masterKey: Buffer, dataKey: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv).setAAD(aad);
  const wrapped = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return Buffer.concat([iv, wrapped, cipher.getAuthTag()]);
}
