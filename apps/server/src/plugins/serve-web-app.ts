import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Serves the built SPA. Vite names the files under assets/ by their content hash, so browsers may
 * keep them forever; everything else (index.html) is revalidated on each load so a deploy shows.
 * The build writes a brotli (.br) and a gzip (.gz) copy beside each text file: the copy the
 * request's Accept-Encoding prefers is sent (brotli first), with `Vary: Accept-Encoding`, and the
 * file itself to a browser that accepts neither. The copies get no routes of their own.
 * Source maps are never served (ASVS 12.5.1), even when a build left some in the folder: the
 * production build makes none, and a debug build's maps stay on the machine that made them.
 * The public pages pre-rendered by the build (pages/, ADR 032) have no address of their own: each is
 * the answer to its route (`pageOf`), sent like index.html. So is the not-found page (404.html),
 * with status 404, for an address that none of the router's routes (routes.json) matches.
 * Returns null when there is no build, and the server then serves only its APIs.
 */
export async function serveWebApp(app: FastifyInstance, distDir: string): Promise<WebApp | null> {
  if (!existsSync(join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'the web app is not built (npm run build); serving the APIs only');
    return null;
  }
  const hashedAssets = join(distDir, 'assets') + sep;
  await app.register(fastifyStatic, {
    root: distDir,
    // One route per built file instead of a catch-all, so unknown paths reach the not-found
    // handlers (the SPA fallback, or a prefix's own handler such as /auth/v1's).
    wildcard: false,
    allowedPath: (pathname) => !pathname.endsWith('.map'),
    preCompressed: true,
    // `/` is not index.html's: it is the landing page's pre-rendered page, or index.html without one.
    index: false,
    globIgnore: ['**/*.br', '**/*.gz', `${pagesDirectory}/**`, notFoundPageFile, routePatternsFile],
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header(
        'cache-control',
        path.startsWith(hashedAssets) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  const pageOfRoute = prerenderedPages(join(distDir, pagesDirectory));
  const isRoute = routeMatcher(distDir);
  const notFoundPage = existsSync(join(distDir, notFoundPageFile)) ? notFoundPageFile : 'index.html';
  return {
    pageOf: (url) =>
      isRoute(url) ? { file: pageOfRoute(url), status: 200 } : { file: notFoundPage, status: 404 },
  };
}

export type WebApp = {
  /**
   * The file (from the build's folder) answering a browser's navigation to `url`, and its status: a
   * route's page or index.html (200), or the not-found page (404) where no route of the app matches.
   */
  pageOf: (url: string) => { file: string; status: 200 | 404 };
};

// The build's files (apps/web/src/prerender/page-document.ts).
/** The folder holding the pre-rendered pages. */
const pagesDirectory = 'pages';
/** The not-found page, pre-rendered. */
const notFoundPageFile = '404.html';
/** The router's route patterns, a JSON array (`/`, `/features`, `/trading/deals/:id`, …). */
const routePatternsFile = 'routes.json';

/**
 * Whether an address is one the web app's router has a route for (other than its catch-all), matched
 * as the router matches it: case aside, each `:name` segment standing for any one segment, trailing
 * slashes ignored. Without routes.json (an older build) every address is one.
 */
function routeMatcher(distDir: string): (url: string) => boolean {
  const file = join(distDir, routePatternsFile);
  if (!existsSync(file)) return () => true;
  const patterns = (JSON.parse(readFileSync(file, 'utf8')) as string[]).map((pattern) =>
    segmentsOf(pattern).map((segment) => (segment.startsWith(':') ? null : segment.toLowerCase())),
  );
  return (url) => {
    const segments = segmentsOf(url.split('?')[0] ?? '').map((segment) => {
      try {
        return decodeURIComponent(segment).toLowerCase();
      } catch {
        return segment.toLowerCase();
      }
    });
    return patterns.some(
      (pattern) =>
        pattern.length === segments.length &&
        pattern.every((segment, index) => segment === null || segment === segments[index]),
    );
  };
}

const segmentsOf = (path: string) => path.split('/').filter((segment) => segment !== '');

/**
 * The pre-rendered pages in `directory`, by route: `index.html` is `/`, `features.html` is `/features`,
 * `dev/mailbox/[id].html` is `/dev/mailbox/` and any one segment. A request with a query string gets
 * index.html, as do paths with no page: a page shows its route as it is without one (a query picks a
 * tab, for instance), and the app renders those itself.
 */
function prerenderedPages(directory: string): (url: string) => string {
  // Each page's route as its segments; null stands for a parameter (any one segment).
  const pages: { segments: (string | null)[]; file: string }[] = [];
  if (existsSync(directory)) {
    for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
      const route = relative(directory, join(entry.parentPath, entry.name)).split(sep).join('/');
      const segments = route === 'index.html' ? [] : route.slice(0, -'.html'.length).split('/');
      pages.push({
        segments: segments.map((segment) => (/^\[[^/]+\]$/.test(segment) ? null : segment)),
        file: `${pagesDirectory}/${route}`,
      });
    }
  }
  // A route of its own before one with a parameter that would also match it.
  pages.sort((a, b) => Number(a.segments.includes(null)) - Number(b.segments.includes(null)));
  return (url) => {
    if (url.includes('?')) return 'index.html';
    const segments = segmentsOf(url);
    const page = pages.find(
      (candidate) =>
        candidate.segments.length === segments.length &&
        candidate.segments.every((segment, index) => segment === null || segment === segments[index]),
    );
    return page?.file ?? 'index.html';
  };
}

/**
 * The dev mailbox's pages, when the server does not serve them (production, SMTP, or a caller they
 * are not open to): the web app's mailbox page then says so, or lists the mail to an admin.
 */
const mailboxPages = /^\/dev\/mailbox(\/[^/?.]+)?\/?(\?|$)/;

/** A browser navigating to one of the SPA's own routes (anything outside the server's APIs). */
export function wantsWebApp(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    (!/^\/(auth|api|dev)\//.test(request.url) || mailboxPages.test(request.url)) &&
    (request.headers.accept ?? '').includes('text/html')
  );
}
