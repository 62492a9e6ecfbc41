import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileStore } from './file-store.js';

/** Removes a file's ciphertext, e.g. when the transaction that recorded it was rolled back. */
export async function discardEncryptedFile(store: FileStore, id: string): Promise<void> {
  await rm(join(store.directory, id), { force: true });
}
