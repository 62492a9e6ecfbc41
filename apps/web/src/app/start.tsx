import type { GoTrueClient } from '@supabase/auth-js';
import { type ReactNode, StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { matchRoutes } from 'react-router';
import { App } from '@/app/index.js';
import { routes } from '@/app/routes.js';

// Created once, outside React, so StrictMode's double rendering cannot start a second client; and
// loaded only when the page needs it (AuthProvider), so public pages open without it.
let authClient: Promise<GoTrueClient> | undefined;
const loadAuthClient = () => {
  authClient ??= import('@/lib/auth-client.js').then((module) =>
    module.createAuthClient(window.location.origin),
  );
  return authClient;
};

/**
 * Loads the lazy modules of the routes matching the address into the route objects, so the router
 * starts with them and the first render is the page itself, as it was pre-rendered.
 */
async function resolveMatchedRoutes(): Promise<void> {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, { ...(await route.lazy()), lazy: undefined });
    }),
  );
}

// Runs `then` once the first render is on the page (its effect runs after those of the whole tree).
// A wrapper rather than a sibling of the app: a sibling would shift the ids React gives the page's
// elements (useId), which must be those of the pre-rendered markup.
function AfterRender({ then, children }: { then: () => void; children: ReactNode }) {
  useEffect(() => then(), [then]);
  return children;
}

/**
 * Starts the app in `root`: hydrates the page pre-rendered there, or renders into an empty root (the
 * signed-in pages, an address with a query). A page opened at an address with a fragment is rendered
 * anew rather than hydrated: the fragment (a question to open, a link's answer) changes its first
 * render, and the server never sees it. `openedWithFragment` says whether it was (by default, whether
 * the address has one now): a fragment an in-page link added after the page opened (the skip link's
 * `#main`) changed nothing the page drew, and drawing it anew would take away the visitor's focus.
 * `rendered` runs once, after the first render.
 */
export async function startApp(
  root: HTMLElement,
  rendered: () => void = () => {},
  { openedWithFragment = window.location.hash !== '' }: { openedWithFragment?: boolean } = {},
): Promise<Root> {
  const hydrating = root.firstElementChild !== null && !openedWithFragment;
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    rendered();
  };
  if (root.firstElementChild !== null) await resolveMatchedRoutes();
  const app = (
    <StrictMode>
      <AfterRender then={once}>
        <App authClient={loadAuthClient} hydrating={hydrating} />
      </AfterRender>
    </StrictMode>
  );
  // The React root, for whoever must take the app down again (tests).
  if (hydrating) return hydrateRoot(root, app);
  const created = createRoot(root);
  created.render(app);
  return created;
}
