export type PasswordProblem = { title: string; description: string };

/** The server refuses longer new passwords (ASVS 2.1.2); saying so here beats a generic failure. */
export const maximumPasswordLength = 128;

// The spec's rules for a new password, in the spec's order: a mismatch is reported before the length.
// The upper bound is the server's, checked last so the spec's two messages come first.
export function checkNewPassword(password: string, confirmation: string): PasswordProblem | null {
  if (password !== confirmation) {
    return { title: 'Password Mismatch', description: 'Passwords do not match. Please try again.' };
  }
  if (password.length < 6) {
    return { title: 'Password Too Short', description: 'Password must be at least 6 characters long.' };
  }
  if ([...password].length > maximumPasswordLength) {
    return {
      title: 'Password Too Long',
      description: `Password must be at most ${maximumPasswordLength} characters long.`,
    };
  }
  return null;
}
