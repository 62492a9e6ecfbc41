import { type ReactNode, useState } from 'react';
import { type AuthClientSource, AuthProvider } from '@/lib/auth.js';
import { ReauthenticationProvider } from '@/lib/reauthentication.js';
import { DeferredToaster } from './deferred-toaster.js';
import { QueryOwnerContext } from './query-owner.js';

// `hydrating`: the page in the document was pre-rendered, and this first render must draw it again.
export function AppProvider({
  authClient,
  hydrating = false,
  children,
}: {
  authClient: AuthClientSource;
  hydrating?: boolean;
  children: ReactNode;
}) {
  const [queryOwner] = useState(() => ({}));
  return (
    <QueryOwnerContext.Provider value={queryOwner}>
      <AuthProvider client={authClient} hydrating={hydrating}>
        <ReauthenticationProvider>{children}</ReauthenticationProvider>
        {/* Offset below the sticky header (4rem) so toasts never cover its buttons. */}
        <DeferredToaster
          theme="dark"
          position="top-right"
          offset={{ top: 76, right: 24 }}
          mobileOffset={{ top: 72, right: 16, left: 16 }}
          duration={4000}
          visibleToasts={3}
          richColors
          closeButton
        />
      </AuthProvider>
    </QueryOwnerContext.Provider>
  );
}
