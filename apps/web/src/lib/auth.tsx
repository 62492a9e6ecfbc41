import type { AuthError, GoTrueClient, Session, User, UserIdentity } from '@supabase/auth-js';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { paths } from '@/config/paths.js';
import { authLinkAnswerPattern, authStorageKey } from '@/lib/auth-storage-key.js';

export type SignUpInput = {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  username?: string;
};

// A confirmation or recovery link, or a sign-in with Google, that failed lands on the site as
// `#error=…&error_code=…&error_description=…`; `code` is the server's error_code.
export type LinkError = { message: string; code: string | null };

type AuthResult = { error: AuthError | null };

type AuthContextValue = {
  user: User | null;
  session: Session | null;
  // True until the client has reported the first session (INITIAL_SESSION), whatever it is.
  loading: boolean;
  linkError: LinkError | null;
  dismissLinkError: () => void;
  signIn: (email: string, password: string) => Promise<AuthResult>;
  signUp: (input: SignUpInput) => Promise<AuthResult & { session: Session | null }>;
  signOut: () => Promise<AuthResult>;
  requestPasswordReset: (email: string) => Promise<AuthResult>;
  updatePassword: (password: string) => Promise<AuthResult>;
  signInWithGoogle: () => Promise<AuthResult>;
  // Removes a linked sign-in identity (Google); the user then lists what is left.
  unlinkIdentity: (identity: UserIdentity) => Promise<AuthResult>;
  // Second factors (TOTP): enrol, challenge and verify (which raises the session to aal2), list, remove.
  mfa: GoTrueClient['mfa'];
  // Proves the user again (password, and a TOTP code when enrolled) for sensitive actions; the session
  // is renewed and its new access token answered.
  reauthenticate: (
    password: string,
    code?: string,
  ) => Promise<{ error: string | null; accessToken?: string }>;
};

const AuthContext = createContext<AuthContextValue | null>(null);

/**
 * The auth client, or a function that loads it. The browser loads it (its library is a fifth of a
 * public page's script) only when it is needed: a session is stored, the address carries a link's
 * answer (#access_token=… or #error=…), another tab stores a session, or the visitor signs in, up
 * or out, or asks for a reset. Until then nobody is signed in, and nothing is loading.
 */
export type AuthClientSource = GoTrueClient | (() => Promise<GoTrueClient>);

/** Whether the page needs the auth client as it opens: a stored session, or a link's answer to read. */
export function authNeededAtLoad(): boolean {
  if (window.localStorage.getItem(authStorageKey) !== null) return true;
  return authLinkAnswerPattern.test(window.location.hash);
}

/**
 * `hydrating`: the page was pre-rendered (signed out, as nobody is signed in at build time), so the
 * first render draws the same signed-out markup; a stored session is looked for once it has hydrated.
 */
export function AuthProvider({
  client: source,
  hydrating = false,
  children,
}: {
  client: AuthClientSource;
  hydrating?: boolean;
  children: ReactNode;
}) {
  const lazy = typeof source === 'function';
  const [client, setClient] = useState<GoTrueClient | null>(lazy ? null : source);
  const loading = useRef<Promise<GoTrueClient> | null>(null);
  const load = useCallback((): Promise<GoTrueClient> => {
    if (typeof source !== 'function') return Promise.resolve(source);
    loading.current ??= source().then((loaded) => {
      setClient(loaded);
      return loaded;
    });
    return loading.current;
  }, [source]);
  const [state, setState] = useState<{ session: Session | null; loading: boolean }>(() => ({
    session: null,
    loading: !hydrating && (!lazy || authNeededAtLoad()),
  }));
  const [linkError, setLinkError] = useState<LinkError | null>(null);

  useEffect(() => {
    if (client) return;
    if (authNeededAtLoad()) {
      // After a hydration the corner showed Sign In until now: it checks the session from here on.
      setState((current) => (current.loading ? current : { ...current, loading: true }));
      void load();
      return;
    }
    // A session stored by another tab: this one follows it as it would with the client loaded.
    const followOtherTab = (event: StorageEvent) => {
      if (event.key === authStorageKey && event.newValue !== null) void load();
    };
    window.addEventListener('storage', followOtherTab);
    return () => window.removeEventListener('storage', followOtherTab);
  }, [client, load]);

  useEffect(() => {
    // Once the client has told the session, the header shows what it is: the pre-rendered page's
    // session hint, which hid Sign In until now, has done its part (a stored session may be invalid).
    if (client && !state.loading) delete document.documentElement.dataset.session;
  }, [client, state.loading]);

  useEffect(() => {
    if (!client) return;
    // Every event carries the session as the client now holds it, so following them all keeps the UI
    // in step with refreshes, sign-outs in other tabs and sessions the client dropped as unrefreshable.
    const { data } = client.onAuthStateChange((_event, session) => {
      setState({ session, loading: false });
    });
    return () => data.subscription.unsubscribe();
  }, [client]);

  useEffect(() => {
    if (!client) return;
    let active = true;
    // The client reads the URL fragment while it initializes. It reports a failed link but leaves that
    // fragment in place, and it leaves a bare '#' after reading a good one: both are removed here, so a
    // reload or a bookmark does not replay the link.
    client.initialize().then(({ error }) => {
      if (!active) return;
      // isAuthImplicitGrantRedirectError's test, without importing the library into this module.
      const failedLink = error?.name === 'AuthImplicitGrantRedirectError';
      if (failedLink) {
        const { details } = error as AuthError & { details: { code?: string } | null };
        setLinkError({ message: error.message, code: details?.code ?? null });
      }
      if (failedLink || window.location.href.endsWith('#')) {
        const { pathname, search } = window.location;
        window.history.replaceState(window.history.state, '', `${pathname}${search}`);
      }
    });
    return () => {
      active = false;
    };
  }, [client]);

  useEffect(() => {
    // The client trusts a stored access token until it nears expiry. Asking the server once the session
    // is known, and again whenever the tab becomes visible, drops a session revoked elsewhere (a sign-out
    // everywhere, a password change) at once: the client removes it and emits SIGNED_OUT.
    if (!client) return;
    const confirmWithServer = () => {
      if (document.visibilityState === 'visible') void client.getUser();
    };
    let active = true;
    client.initialize().then(() => {
      if (active) confirmWithServer();
    });
    document.addEventListener('visibilitychange', confirmWithServer);
    return () => {
      active = false;
      document.removeEventListener('visibilitychange', confirmWithServer);
    };
  }, [client]);

  const value = useMemo<AuthContextValue>(
    () => ({
      user: state.session?.user ?? null,
      session: state.session,
      loading: state.loading,
      linkError,
      dismissLinkError: () => setLinkError(null),
      signIn: async (email, password) => {
        const { error } = await (await load()).signInWithPassword({ email, password });
        return { error };
      },
      signUp: async ({ email, password, firstName, lastName, username }) => {
        const { data, error } = await (await load()).signUp({
          email,
          password,
          options: {
            emailRedirectTo: window.location.origin,
            data: withoutBlanks({ first_name: firstName, last_name: lastName, username }),
          },
        });
        return { error, session: data.session };
      },
      signOut: async () => {
        const { error } = await (await load()).signOut();
        return { error };
      },
      requestPasswordReset: async (email) => {
        const { error } = await (await load()).resetPasswordForEmail(email, {
          redirectTo: `${window.location.origin}${paths.resetPassword}`,
        });
        return { error };
      },
      updatePassword: async (password) => {
        const { error } = await (await load()).updateUser({ password });
        return { error };
      },
      signInWithGoogle: async () => {
        const { error } = await (await load()).signInWithOAuth({
          provider: 'google',
          options: { redirectTo: `${window.location.origin}${paths.trading}` },
        });
        return { error };
      },
      unlinkIdentity: async (identity) => {
        const auth = await load();
        const { error } = await auth.unlinkIdentity(identity);
        if (error) return { error };
        // The session's user still lists the identity: a refreshed session carries the account as it is.
        const refreshed = await auth.refreshSession();
        return { error: refreshed.error };
      },
      mfa: client?.mfa ?? lazyMfa(load),
      reauthenticate: async (password, code) => {
        const response = await fetch(`${window.location.origin}/auth/v1/reauthenticate`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Authorization: `Bearer ${state.session?.access_token ?? ''}`,
          },
          body: JSON.stringify(code ? { password, code } : { password }),
        });
        const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
        if (!response.ok) return { error: reauthenticationErrorOf(response.status, body) };
        const renewed = body as { access_token: string; refresh_token: string };
        const { error } = await (await load()).setSession(renewed);
        return error ? { error: error.message } : { error: null, accessToken: renewed.access_token };
      },
    }),
    [client, load, state, linkError],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}

// The second-factor API before the client has loaded: each call loads it, then makes the call. (Only
// a signed-in page uses it, and a stored session loads the client as the page opens.)
function lazyMfa(load: () => Promise<GoTrueClient>): GoTrueClient['mfa'] {
  return new Proxy({} as GoTrueClient['mfa'], {
    get:
      (_target, name) =>
      async (...args: unknown[]) => {
        const mfa = (await load()).mfa as unknown as Record<PropertyKey, (...args: unknown[]) => unknown>;
        return mfa[name]?.(...args);
      },
  });
}

// What the reauthentication dialog shows for a refused attempt, from GoTrue's error body.
function reauthenticationErrorOf(status: number, body: Record<string, unknown> | null): string {
  const code = body?.error_code;
  if (code === 'invalid_credentials') return 'That password is not correct.';
  if (code === 'mfa_verification_failed') return 'That code is not correct or was already used.';
  if (status === 429) return 'Too many attempts. Wait a moment and try again.';
  return typeof body?.msg === 'string' ? body.msg : 'Your password could not be confirmed.';
}

// Optional profile fields left empty are not sent, so the server never stores "" as a username.
function withoutBlanks(fields: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).flatMap(([key, value]) => (value?.trim() ? [[key, value.trim()]] : [])),
  );
}
