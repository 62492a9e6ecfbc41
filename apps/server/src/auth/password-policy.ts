import { AuthError } from './auth-error.js';
import { commonPasswords } from './common-passwords.js';

/** The spec's minimum (combined sign-up page). */
export const minimumPasswordLength = 6;
/** argon2 has no length limit, but hashing megabytes on request would be an easy denial of service. */
export const maximumPasswordLength = 256;
const minimumDistinctCharacters = 4;

export type WeakPasswordReason = 'length' | 'characters' | 'pwned';

/** GoTrue's weak-password reasons that apply to `password`; empty when it is acceptable. */
export function findWeakPasswordReasons(password: string): WeakPasswordReason[] {
  const reasons: WeakPasswordReason[] = [];
  if ([...password].length < minimumPasswordLength) reasons.push('length');
  if (new Set(password).size < minimumDistinctCharacters) reasons.push('characters');
  if (commonPasswords.has(password.toLowerCase())) reasons.push('pwned');
  return reasons;
}

const messages: Record<WeakPasswordReason, string> = {
  length: `This is a weak password: it should be at least ${minimumPasswordLength} characters.`,
  characters: `This is a weak password: it should use at least ${minimumDistinctCharacters} different characters.`,
  pwned: 'This is a weak password: it is known to be easy to guess, please choose a different one.',
};

/** Throws GoTrue's `weak_password` error (422, with the reasons) unless the password is acceptable. */
export function assertStrongPassword(password: string): void {
  const reasons = findWeakPasswordReasons(password);
  const first = reasons[0];
  if (!first) return;
  throw new AuthError(422, 'weak_password', messages[first], {
    extra: { weak_password: { reasons, message: messages[first] } },
  });
}
