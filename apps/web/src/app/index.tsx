import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider.js';
import { routes } from '@/app/routes.js';
import type { AuthClientSource } from '@/lib/auth.js';

export function App({ authClient }: { authClient: AuthClientSource }) {
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProvider authClient={authClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
