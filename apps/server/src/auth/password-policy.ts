import { AuthError, validationFailed } from './auth-error.js';
import { commonPasswords } from './common-passwords.js';

/** The spec's minimum (combined sign-up page). */
export const minimumPasswordLength = 6;
/**
 * The longest password a request may carry. argon2 has no length limit, but hashing megabytes on
 * request would be an easy denial of service. Sign-in takes passwords up to this length, so that
 * accounts whose password was set before the 128-character rule still sign in.
 */
export const maximumPasswordLength = 256;
/** The longest new password (ASVS 2.1.2: at least 64 allowed, more than 128 refused). */
export const maximumNewPasswordLength = 128;
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

/**
 * Throws unless a new password is acceptable: `validation_failed` (400, as GoTrue refuses a password
 * past its own maximum) when it is too long, else GoTrue's `weak_password` (422, with the reasons).
 */
export function assertStrongPassword(password: string): void {
  if ([...password].length > maximumNewPasswordLength) {
    throw validationFailed(`Password cannot be longer than ${maximumNewPasswordLength} characters.`);
  }
  const reasons = findWeakPasswordReasons(password);
  const first = reasons[0];
  if (!first) return;
  throw new AuthError(422, 'weak_password', messages[first], {
    extra: { weak_password: { reasons, message: messages[first] } },
  });
}
