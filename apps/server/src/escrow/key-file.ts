import { randomBytes } from 'node:crypto';
import type { Hex } from 'viem';
import { readOrCreateSecretFile } from '../files/secret-file.js';

/**
 * A secp256k1 private key kept in a file readable by the owner only, generated on first use. The
 * key is never logged and never leaves this process except as signatures.
 */
export async function loadOrCreateKeyFile(path: string): Promise<Hex> {
  const text = (await readOrCreateSecretFile(path, () => `0x${randomBytes(32).toString('hex')}\n`)).trim();
  if (!/^0x[0-9a-f]{64}$/.test(text)) throw new Error(`${path} does not hold a 32-byte hex key`);
  return text as Hex;
}
