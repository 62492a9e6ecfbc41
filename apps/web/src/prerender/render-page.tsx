import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider.js';
import { routes } from '@/app/routes.js';

export { routePatterns } from '@/app/route-patterns.js';
export { publicPaths } from '@/config/paths.js';

// Nothing signs in while a page is rendered at build time: the account corner renders signed out.
const noAuthClient = () => Promise.reject(new Error('No auth client while pre-rendering'));

/**
 * The markup of one route as the browser's first render of it draws it (signed out, no data yet),
 * with the route's lazy modules resolved; React puts the page's <title> first.
 * No hydration data is written: no route has a loader, and the content security policy refuses the
 * inline script it would take.
 */
export async function renderPage(path: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`${path} answered a redirect while pre-rendering`);
  if (context.errors)
    throw new Error(`${path} failed while pre-rendering: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const page = (
    <StrictMode>
      <AppProvider authClient={noAuthClient} hydrating>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProvider>
    </StrictMode>
  );
  // Every part in place, in document order: no boundary moved in later by a script (which React does
  // for a large boundary, or one still loading, to paint the rest first).
  const { prelude } = await prerender(page, { progressiveChunkSize: Number.POSITIVE_INFINITY });
  return new Response(prelude as ReadableStream).text();
}
