import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
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
 * Returns false when there is no build, and the server then serves only its APIs.
 */
export async function serveWebApp(app: FastifyInstance, distDir: string): Promise<boolean> {
  if (!existsSync(join(distDir, 'index.html'))) {
    app.log.warn({ distDir }, 'the web app is not built (npm run build); serving the APIs only');
    return false;
  }
  const hashedAssets = join(distDir, 'assets') + sep;
  await app.register(fastifyStatic, {
    root: distDir,
    // One route per built file instead of a catch-all, so unknown paths reach the not-found
    // handlers (the SPA fallback, or a prefix's own handler such as /auth/v1's).
    wildcard: false,
    allowedPath: (pathname) => !pathname.endsWith('.map'),
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header(
        'cache-control',
        path.startsWith(hashedAssets) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  return true;
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
