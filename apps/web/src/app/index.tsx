import type { GoTrueClient } from '@supabase/auth-js';
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider.js';
import { routes } from '@/app/routes.js';

export function App({ authClient }: { authClient: GoTrueClient }) {
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProvider authClient={authClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
