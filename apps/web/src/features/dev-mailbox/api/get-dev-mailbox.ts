import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@/lib/auth.js';

/** A message as `GET /dev/mailbox.json` lists it. */
export interface DevMailboxMessage {
  id: string;
  from: string;
  to: string;
  subject: string;
  date: string | null;
  text: string;
  html: string;
}

/**
 * The dev mailbox, newest first, or null when the server answers 404: it has no mailbox (SMTP,
 * production), or the mailbox is not open to this caller. The server makes the two look alike.
 * It lives outside /api/v1, so it is fetched here rather than through the API client.
 */
export async function getDevMailbox(accessToken: string | undefined): Promise<DevMailboxMessage[] | null> {
  const headers = new Headers({ Accept: 'application/json' });
  if (accessToken) headers.set('Authorization', `Bearer ${accessToken}`);
  const response = await fetch(new URL('/dev/mailbox.json', window.location.origin), { headers });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
  return ((await response.json()) as { messages: DevMailboxMessage[] }).messages;
}

/** The mailbox as the signed-in user (an admin with a second factor may read it from anywhere) or as a visitor. */
export function useDevMailbox() {
  const { session, loading } = useAuth();
  return useQuery({
    queryKey: ['dev-mailbox', session?.user.id],
    queryFn: () => getDevMailbox(session?.access_token),
    enabled: !loading,
  });
}
