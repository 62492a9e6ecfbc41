import type { GoTrueClient } from '@supabase/auth-js';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { onTestFinished, vi } from 'vitest';
import { AppProvider } from '@/app/provider.js';
import { routes } from '@/app/routes.js';
import { createAuthClient } from '@/lib/auth-client.js';
import type { FakeAuthServer } from './fake-auth-server.js';

// Renders the whole app (providers, layout, every route) at `path`, with the real auth client talking
// to `server` in place of the network. As in the browser, the client is created only when the app
// loads it (a stored session, a link's answer, or a sign-in).
export function renderApp(path: string, server: FakeAuthServer) {
  vi.stubGlobal('fetch', server.fetch);
  let authClient: GoTrueClient | undefined;
  const loadAuthClient = async () => {
    authClient ??= createAuthClient(window.location.origin);
    return authClient;
  };
  onTestFinished(() => authClient?.stopAutoRefresh());
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProvider authClient={loadAuthClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, authClientLoaded: () => authClient !== undefined };
}
