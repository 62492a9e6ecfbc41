import type { GoTrueClient } from '@supabase/auth-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { AuthProvider } from '@/lib/auth.js';
import { ReauthenticationProvider } from '@/lib/reauthentication.js';
import { DeferredToaster } from './deferred-toaster.js';

export function AppProvider({ authClient, children }: { authClient: GoTrueClient; children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 60_000, retry: 1 } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider client={authClient}>
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
    </QueryClientProvider>
  );
}
