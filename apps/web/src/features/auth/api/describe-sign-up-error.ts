// What the server may say about a failed sign-up: GoTrue's message and, when it sends one, its code.
export type SignUpFailure = { message: string; code?: string | undefined };

// Picks the spec's sign-up message from the error's text; codes are checked too because GoTrue's
// messages for them ("User already registered", "Password should be…") do not contain the phrases.
export function describeSignUpError({ message, code }: SignUpFailure): string {
  const text = message.toLowerCase();
  if (text.includes('already registered') || code === 'user_already_exists') {
    return 'This email is already registered. Please sign in instead.';
  }
  if (text.includes('invalid email') || code === 'email_address_invalid') {
    return 'Please enter a valid email address.';
  }
  if (text.includes('weak password') || code === 'weak_password') {
    return 'Password is too weak. Please choose a stronger password.';
  }
  return 'An error occurred during registration.';
}
