import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider.js';
import { routes } from '@/app/routes.js';
import type { AuthClientSource } from '@/lib/auth.js';

// `hydrating`: the document holds this page pre-rendered, and the first render draws it again.
export function App({
  authClient,
  hydrating = false,
}: {
  authClient: AuthClientSource;
  hydrating?: boolean;
}) {
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProvider authClient={authClient} hydrating={hydrating}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
