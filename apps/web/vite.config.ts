/// <reference types="vitest/config" />
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Plugin } from 'vite';
import {
  inlineStylesheets,
  notFoundPageFile,
  notFoundRenderedPath,
  pageDocument,
  pageFileOf,
  pagesDirectory,
  renderedPathOf,
  routePatternsFile,
} from './src/prerender/page-document.js';

const compressible = /\.(html|js|css|svg|json|txt|xml|webmanifest)$/;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build, compressed once
 * at their strongest level, for the server to send by the browser's Accept-Encoding. A copy that
 * would not be smaller than its file is not written.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'covenant-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !compressible.test(entry.name)) continue;
        const path = join(entry.parentPath, entry.name);
        const content = readFileSync(path);
        const brotli = brotliCompressSync(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        });
        const gzip = gzipSync(content, { level: constants.Z_BEST_COMPRESSION });
        if (brotli.length < content.length) writeFileSync(`${path}.br`, brotli);
        if (gzip.length < content.length) writeFileSync(`${path}.gz`, gzip);
      }
    },
  };
}

/**
 * Renders every public route (publicPaths) with React's server renderer once the app is built, into
 * its own page under dist/pages/ (the built index.html with the route's markup and title), which the
 * server sends for that route. The not-found page is rendered too (dist/404.html), with the router's
 * route patterns beside it (dist/routes.json): the server answers an address none of them matches
 * with that page and status 404. The app's modules are loaded through Vite's server-side loader, from
 * this same configuration. Runs before the compressed copies are written, so the pages get theirs.
 */
function prerenderPublicPages(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'covenant-prerender-public-pages',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'pre',
      sequential: true,
      async handler() {
        const loader = await createServer({
          root,
          configFile: fileURLToPath(import.meta.url),
          server: { middlewareMode: true, hmr: false, ws: false },
          appType: 'custom',
          logLevel: 'warn',
        });
        try {
          const { renderPage, publicPaths, routePatterns } = (await loader.ssrLoadModule(
            '/src/prerender/render-page.tsx',
          )) as typeof import('./src/prerender/render-page.js');
          const template = inlineStylesheets(readFileSync(join(outDir, 'index.html'), 'utf8'), (address) =>
            readFileSync(join(outDir, address), 'utf8'),
          );
          for (const path of publicPaths) {
            const file = join(outDir, pagesDirectory, pageFileOf(path));
            mkdirSync(dirname(file), { recursive: true });
            writeFileSync(file, pageDocument(template, await renderPage(renderedPathOf(path))));
          }
          writeFileSync(
            join(outDir, notFoundPageFile),
            pageDocument(template, await renderPage(notFoundRenderedPath)),
          );
          writeFileSync(join(outDir, routePatternsFile), `${JSON.stringify(routePatterns)}\n`);
        } finally {
          await loader.close();
        }
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), prerenderPublicPages(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    port: 5173,
    // Only the server's own prefixes: a bare '/auth' or '/api' would also capture the /auth and
    // /api-reference pages.
    proxy: {
      '/auth/v1/': 'http://localhost:3000',
      '/api/': 'http://localhost:3000',
      '/dev/': 'http://localhost:3000',
    },
  },
  build: {
    outDir: 'dist',
    // No source maps in what the server serves (ASVS 12.5.1); `vite build --sourcemap` makes them
    // for debugging locally, and the server refuses to serve them even then.
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            { name: 'auth-client', test: /node_modules[\\/]@supabase[\\/]/ },
          ],
        },
      },
    },
  },
  // Used by the root vitest config's `web` project, which extends this file.
  test: { setupFiles: ['./src/testing/setup.ts'] },
});
