// The server's message for a failed sign-in, or the spec's fallback when there is none. The auth client
// turns a response without a message into the text of its JSON body ("{}"), which says nothing either.
export function describeSignInError({ message }: { message: string }): string {
  const text = message.trim();
  if (text === '' || text === '{}') return 'Please check your credentials and try again.';
  return text;
}
