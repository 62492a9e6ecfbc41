import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readOrCreateSecretFile } from './secret-file.js';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'covenant-secret-file-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('readOrCreateSecretFile', () => {
  it('creates the file once, readable by the owner only, and reads it back afterwards', async () => {
    const path = join(directory, 'keys', 'secret');
    const created = await readOrCreateSecretFile(path, () => 'first\n');
    expect(created).toBe('first\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readOrCreateSecretFile(path, () => 'second\n')).toBe('first\n');
    expect(await readdir(join(directory, 'keys'))).toEqual(['secret']);
  });

  it('gives every concurrent starter the same complete secret, never an empty or half-written file', async () => {
    const path = join(directory, 'secret');
    // Starters arrive spread over a few milliseconds while a large secret is being written: a
    // late starter could read a file another starter has created but not finished writing (the
    // race two replicas on one volume hit).
    const size = 4 * 1024 * 1024;
    const results = await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        await new Promise((resolve) => setTimeout(resolve, index % 10));
        return readOrCreateSecretFile(path, () => `${randomBytes(size / 2).toString('hex')}\n`);
      }),
    );
    const onDisk = await readFile(path, 'utf8');
    expect(onDisk).toHaveLength(size + 1);
    for (const result of results) expect(result).toBe(onDisk);
    expect(await readdir(directory)).toEqual(['secret']);
  });

  it('keeps a file that already exists, whatever it holds, for the caller to judge', async () => {
    const path = join(directory, 'secret');
    await writeFile(path, 'not a key');
    expect(await readOrCreateSecretFile(path, () => 'fresh')).toBe('not a key');
  });
});
