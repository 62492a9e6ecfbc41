export type PasswordProblem = { title: string; description: string };

// The spec's rules for a new password, in the spec's order: a mismatch is reported before the length.
export function checkNewPassword(password: string, confirmation: string): PasswordProblem | null {
  if (password !== confirmation) {
    return { title: 'Password Mismatch', description: 'Passwords do not match. Please try again.' };
  }
  if (password.length < 6) {
    return { title: 'Password Too Short', description: 'Password must be at least 6 characters long.' };
  }
  return null;
}
