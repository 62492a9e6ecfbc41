import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Hex } from 'viem';

/**
 * A secp256k1 private key kept in a file readable by the owner only, generated on first use. The
 * key is never logged and never leaves this process except as signatures.
 */
export async function loadOrCreateKeyFile(path: string): Promise<Hex> {
  try {
    const text = (await readFile(path, 'utf8')).trim();
    if (!/^0x[0-9a-f]{64}$/.test(text)) throw new Error(`${path} does not hold a 32-byte hex key`);
    return text as Hex;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const key = `0x${randomBytes(32).toString('hex')}` as Hex;
  // `wx` refuses to overwrite a key another process wrote meanwhile; that key wins.
  try {
    await writeFile(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateKeyFile(path);
    throw error;
  }
}
