import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Marks sealed text; a JSON body or a base32 secret never starts with it. */
const sealedPrefix = 'sealed:v1:';
const ivBytes = 12;
const tagBytes = 16;

/**
 * Encrypts a short secret for a database column with the file master key (ADR 007), AES-256-GCM
 * with a fresh IV. `context` (e.g. the row's key) is the additional authenticated data: sealed text
 * copied onto another row fails to open, as does any changed character.
 */
export function sealText(masterKey: Buffer, text: string, context: string): string {
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv).setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return `${sealedPrefix}${Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64')}`;
}

/** Whether a column value was written by `sealText` (rows from before sealing hold clear text). */
export function isSealedText(value: string): boolean {
  return value.startsWith(sealedPrefix);
}

/** Decrypts what `sealText` wrote for the same context; throws on any other key, context or change. */
export function openSealedText(masterKey: Buffer, sealed: string, context: string): string {
  if (!isSealedText(sealed)) throw new Error('not sealed text');
  const bytes = Buffer.from(sealed.slice(sealedPrefix.length), 'base64');
  const iv = bytes.subarray(0, ivBytes);
  const tag = bytes.subarray(bytes.length - tagBytes);
  const decipher = createDecipheriv('aes-256-gcm', masterKey, iv)
    .setAAD(Buffer.from(context))
    .setAuthTag(tag);
  return Buffer.concat([
    decipher.update(bytes.subarray(ivBytes, bytes.length - tagBytes)),
    decipher.final(),
  ]).toString('utf8');
}
