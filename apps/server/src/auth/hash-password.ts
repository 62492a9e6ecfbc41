import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2 defaults to argon2id (19 MiB, 2 passes, 1 lane: OWASP's minimum recommendation).

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password);
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of a real verification when there is no hash to check (unknown e-mail, account
 * without a password), so response times do not tell which accounts exist.
 */
export async function verifyPasswordOfUnknownAccount(password: string): Promise<false> {
  dummyHash ??= hash('covenant-dummy-password');
  await verify(await dummyHash, password);
  return false;
}
