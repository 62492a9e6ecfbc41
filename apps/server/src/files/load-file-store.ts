import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileStore } from './file-store.js';
import { readOrCreateSecretFile } from './secret-file.js';

const masterKeyBytes = 32;

/**
 * The file store under `DATA_DIR/files` with its master key: FILE_ENCRYPTION_KEY when configured,
 * otherwise `DATA_DIR/keys/file-master-key`, generated on first start and readable by the owner only.
 */
export async function loadFileStore(options: {
  dataDir: string;
  fileEncryptionKey: string | undefined;
}): Promise<FileStore> {
  const directory = join(options.dataDir, 'files');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const masterKey = options.fileEncryptionKey
    ? decodeMasterKey(options.fileEncryptionKey, 'FILE_ENCRYPTION_KEY')
    : await loadOrCreateKeyFile(join(options.dataDir, 'keys'));
  return { directory, masterKey };
}

async function loadOrCreateKeyFile(directory: string): Promise<Buffer> {
  const path = join(directory, 'file-master-key');
  const text = await readOrCreateSecretFile(
    path,
    () => `${randomBytes(masterKeyBytes).toString('base64')}\n`,
  );
  return decodeMasterKey(text.trim(), path);
}

function decodeMasterKey(text: string, source: string): Buffer {
  const key = Buffer.from(text, 'base64');
  if (key.length !== masterKeyBytes || key.toString('base64') !== text) {
    throw new Error(`${source} must be ${masterKeyBytes} bytes in base64`);
  }
  return key;
}
