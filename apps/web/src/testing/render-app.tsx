import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { onTestFinished, vi } from 'vitest';
import { AppProvider } from '@/app/provider.js';
import { routes } from '@/app/routes.js';
import { createAuthClient } from '@/lib/auth-client.js';
import type { FakeAuthServer } from './fake-auth-server.js';

// Renders the whole app (providers, layout, every route) at `path`, with the real auth client talking
// to `server` in place of the network.
export function renderApp(path: string, server: FakeAuthServer) {
  vi.stubGlobal('fetch', server.fetch);
  const authClient = createAuthClient(window.location.origin);
  onTestFinished(() => authClient.stopAutoRefresh());
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProvider authClient={authClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, authClient };
}
