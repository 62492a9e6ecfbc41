import { GoTrueClient } from '@supabase/auth-js';
import { authStorageKey } from '@/lib/auth-storage-key.js';

export { authStorageKey };

// The browser's single auth client, talking to the server's GoTrue-compatible API on the same origin.
// Its own rules are the product's session rules: the session lives in localStorage, a timer checks it
// every 30 s and refreshes it when 90 s or less remain, and a session that is invalid, or whose refresh
// is refused once its access token has expired, is removed (the client then emits SIGNED_OUT).
export function createAuthClient(origin: string): GoTrueClient {
  return new GoTrueClient({
    url: `${origin}/auth/v1`,
    persistSession: true,
    storage: window.localStorage,
    storageKey: authStorageKey,
    autoRefreshToken: true,
    detectSessionInUrl: true,
    flowType: 'implicit',
  });
}
