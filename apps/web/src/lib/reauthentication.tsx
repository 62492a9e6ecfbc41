import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
} from 'react';

// Opened only when the server asks for it: loaded then, never with a page.
const ReauthenticationDialog = lazy(() =>
  import('@/components/reauthentication-dialog.js').then((module) => ({
    default: module.ReauthenticationDialog,
  })),
);

// Asks the user to prove who they are again; the renewed access token, or null if they cancel.
export type RequestReauthentication = () => Promise<string | null>;

const ReauthenticationContext = createContext<RequestReauthentication | null>(null);

// Shows the reauthentication dialog when an API call asks for it; calls waiting at the same time
// share one dialog and all get its answer.
export function ReauthenticationProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const waiting = useRef<{ promise: Promise<string | null>; resolve: (token: string | null) => void } | null>(
    null,
  );

  const request = useCallback<RequestReauthentication>(() => {
    if (!waiting.current) {
      let resolve: (token: string | null) => void = () => undefined;
      const promise = new Promise<string | null>((settle) => {
        resolve = settle;
      });
      waiting.current = { promise, resolve };
      setOpen(true);
    }
    return waiting.current.promise;
  }, []);

  const done = useCallback((token: string | null) => {
    waiting.current?.resolve(token);
    waiting.current = null;
    setOpen(false);
  }, []);

  const value = useMemo(() => request, [request]);
  return (
    <ReauthenticationContext.Provider value={value}>
      {children}
      {open && (
        <Suspense fallback={null}>
          <ReauthenticationDialog onDone={done} />
        </Suspense>
      )}
    </ReauthenticationContext.Provider>
  );
}

// The provider's request, or null outside it (then a REAUTHENTICATION_NEEDED answer is an error like any other).
export function useRequestReauthentication(): RequestReauthentication | null {
  return useContext(ReauthenticationContext);
}

// For calls of the auth client (second factors): when the server answers `reauthentication_needed`,
// the dialog asks for the password and the call is made once more with the renewed session.
export function useRetryAfterReauthentication() {
  const request = useRequestReauthentication();
  return useCallback(
    async <T extends { error: { code?: string } | null }>(action: () => Promise<T>): Promise<T> => {
      const first = await action();
      if (first.error?.code !== 'reauthentication_needed' || !request) return first;
      return (await request()) ? action() : first;
    },
    [request],
  );
}
