import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFileStore } from './load-file-store.js';
import { readEncryptedFile } from './read-encrypted-file.js';
import { storeEncryptedFile } from './store-encrypted-file.js';

let database: Database;
let dataDir: string;
let ownerId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'covenant-files-'));
  const [user] = await database.db
    .insert(schema.users)
    .values({ email: `files.${Date.now()}@example.com` })
    .returning();
  ownerId = user!.id;
});
afterAll(async () => {
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const plaintext = Buffer.from('%PDF-1.7 passport of Jane Example, number X1234567 — keep private');

async function storeSample() {
  const store = await loadFileStore({ dataDir, fileEncryptionKey: undefined });
  const file = await storeEncryptedFile(store, database.db, {
    ownerId,
    purpose: 'kyc_document',
    filename: 'passport.pdf',
    contentType: 'application/pdf',
    content: plaintext,
  });
  return { store, file };
}

describe('encrypted file storage', () => {
  it('keeps only ciphertext on disk and gives the plaintext back', async () => {
    const { store, file } = await storeSample();
    expect(file).toMatchObject({
      filename: 'passport.pdf',
      contentType: 'application/pdf',
      size: plaintext.length,
    });

    const onDisk = await readFile(join(dataDir, 'files', file.id));
    expect(onDisk.length).toBe(plaintext.length);
    expect(onDisk.includes(Buffer.from('passport'))).toBe(false);
    expect(onDisk.includes(Buffer.from('%PDF-'))).toBe(false);
    // The row holds no usable key: the data key is wrapped, not stored.
    expect(Buffer.from(file.wrappedKey, 'base64').length).toBe(12 + 32 + 16);

    const read = await readEncryptedFile(store, database.db, file.id);
    expect(read.content.equals(plaintext)).toBe(true);
    expect(read.file.id).toBe(file.id);
  });

  it('generates the master key once, readable by the owner only, and reuses it', async () => {
    const { file } = await storeSample();
    const keyPath = join(dataDir, 'keys', 'file-master-key');
    expect((await stat(keyPath)).mode & 0o777).toBe(0o600);
    const reopened = await loadFileStore({ dataDir, fileEncryptionKey: undefined });
    expect((await readEncryptedFile(reopened, database.db, file.id)).content.equals(plaintext)).toBe(true);
  });

  it('detects a changed byte in the ciphertext', async () => {
    const { store, file } = await storeSample();
    const path = join(dataDir, 'files', file.id);
    const ciphertext = await readFile(path);
    ciphertext[5] = ciphertext[5]! ^ 0x01;
    await writeFile(path, ciphertext);
    await expect(readEncryptedFile(store, database.db, file.id)).rejects.toThrow(
      /unable to authenticate data/i,
    );
  });

  it('detects a swapped ciphertext, a changed tag and a changed wrapped key', async () => {
    const first = await storeSample();
    const second = await storeSample();
    const { store } = first;
    // Another file's ciphertext under this row: its id is bound into the encryption.
    await writeFile(
      join(dataDir, 'files', first.file.id),
      await readFile(join(dataDir, 'files', second.file.id)),
    );
    await expect(readEncryptedFile(store, database.db, first.file.id)).rejects.toThrow();

    const tag = Buffer.from(second.file.authTag, 'base64');
    tag[0] = tag[0]! ^ 0xff;
    await database.db
      .update(schema.storedFiles)
      .set({ authTag: tag.toString('base64') })
      .where(eq(schema.storedFiles.id, second.file.id));
    await expect(readEncryptedFile(store, database.db, second.file.id)).rejects.toThrow();

    const third = await storeSample();
    await database.db
      .update(schema.storedFiles)
      .set({ wrappedKey: second.file.wrappedKey })
      .where(eq(schema.storedFiles.id, third.file.id));
    await expect(readEncryptedFile(store, database.db, third.file.id)).rejects.toThrow();
  });

  it('cannot decrypt with another master key; uses FILE_ENCRYPTION_KEY when configured', async () => {
    const { file } = await storeSample();
    const configuredKey = randomBytes(32).toString('base64');
    const other = await loadFileStore({ dataDir, fileEncryptionKey: configuredKey });
    expect(other.masterKey.toString('base64')).toBe(configuredKey);
    await expect(readEncryptedFile(other, database.db, file.id)).rejects.toThrow();

    const stored = await storeEncryptedFile(other, database.db, {
      ownerId,
      purpose: 'kyc_document',
      filename: 'a.pdf',
      contentType: 'application/pdf',
      content: plaintext,
    });
    expect((await readEncryptedFile(other, database.db, stored.id)).content.equals(plaintext)).toBe(true);
  });

  it('refuses a malformed master key', async () => {
    await expect(loadFileStore({ dataDir, fileEncryptionKey: 'c2hvcnQ=' })).rejects.toThrow(
      'FILE_ENCRYPTION_KEY must be 32 bytes in base64',
    );
  });

  it('answers NOT_FOUND for an unknown file', async () => {
    const store = await loadFileStore({ dataDir, fileEncryptionKey: undefined });
    await expect(
      readEncryptedFile(store, database.db, '00000000-0000-4000-8000-000000000000'),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
