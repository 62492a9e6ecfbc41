import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Db, schema } from '@covenant/db';
import { inArray } from 'drizzle-orm';
import type { FileStore } from './file-store.js';

/** Removes a file's ciphertext, e.g. when the transaction that recorded it was rolled back. */
export async function discardEncryptedFile(store: FileStore, id: string): Promise<void> {
  await rm(join(store.directory, id), { force: true });
}

/** Removes stored files nothing came to refer to (their use was never recorded): the rows, then the ciphertext. */
export async function discardStoredFiles(store: FileStore, db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(schema.storedFiles).where(inArray(schema.storedFiles.id, [...ids]));
  await Promise.all(ids.map((id) => discardEncryptedFile(store, id)));
}
