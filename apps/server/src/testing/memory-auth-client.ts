import { GoTrueClient } from '@supabase/auth-js';

/**
 * The official Supabase auth client against a server's /auth/v1, as a browser would use it, with its
 * session kept in memory (one store per client, so two clients are two browsers).
 */
export function memoryAuthClient(
  origin: string,
  options: { flowType?: 'implicit' | 'pkce' } = {},
): GoTrueClient {
  const store = new Map<string, string>();
  return new GoTrueClient({
    url: `${origin}/auth/v1`,
    ...(options.flowType ? { flowType: options.flowType } : {}),
    autoRefreshToken: false,
    detectSessionInUrl: false,
    persistSession: true,
    storageKey: `covenant-test-${Math.random()}`,
    storage: {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => {
        store.set(key, value);
      },
      removeItem: (key: string) => {
        store.delete(key);
      },
    },
  });
}
