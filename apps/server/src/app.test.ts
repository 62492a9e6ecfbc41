import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { type Database, openDatabase } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { AppError, sessionHintScript } from '@covenant/domain';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routePatterns } from '../../web/src/app/route-patterns.js';
import { publicPaths } from '../../web/src/config/paths.js';
import {
  notFoundPageFile,
  pageFileOf,
  pagesDirectory,
  renderedPathOf,
  routePatternsFile,
} from '../../web/src/prerender/page-document.js';
import { buildTestApp, type TestApp } from './build-test-app.js';
import { createLogger } from './plugins/create-logger.js';
import { sessionHintSource } from './plugins/secure-headers.js';

const now = new Date('2030-05-04T03:02:01Z');
const webDistDir = mkdtempSync(join(tmpdir(), 'covenant-web-'));
mkdirSync(join(webDistDir, 'assets'));
writeFileSync(join(webDistDir, 'index.html'), '<!doctype html><title>Covenant</title><div id="root"></div>');
writeFileSync(join(webDistDir, 'assets', 'index-Bx12cd34.js'), 'console.log("app")');
writeFileSync(join(webDistDir, 'assets', 'index-Bx12cd34.js.map'), '{"version":3,"sources":["app.tsx"]}');
writeFileSync(join(webDistDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
// The build's compressed copies (apps/web/vite.config.ts): the script has both, the page gzip only.
const indexHtml = '<!doctype html><title>Covenant</title><div id="root"></div>';
const script = 'console.log("app")';
writeFileSync(join(webDistDir, 'assets', 'index-Bx12cd34.js.br'), brotliCompressSync(script));
writeFileSync(join(webDistDir, 'assets', 'index-Bx12cd34.js.gz'), gzipSync(script));
writeFileSync(join(webDistDir, 'index.html.gz'), gzipSync(indexHtml));
// The build's not-found page and the router's route patterns beside it (apps/web/vite.config.ts).
const notFoundHtml =
  '<!doctype html><title>Page not found</title><div id="root"><main><h1>404</h1></main></div>';
writeFileSync(join(webDistDir, notFoundPageFile), notFoundHtml);
writeFileSync(join(webDistDir, `${notFoundPageFile}.gz`), gzipSync(notFoundHtml));
writeFileSync(join(webDistDir, routePatternsFile), JSON.stringify(routePatterns));
// The build's pre-rendered public pages (apps/web/vite.config.ts), named as the build names them.
const prerenderedHtml = (path: string) =>
  `<!doctype html><title>${path}</title><script type="module" crossorigin src="/assets/index-Bx12cd34.js"></script><div id="root"><main><h1>Page of ${path}</h1></main></div>`;
for (const path of publicPaths) {
  const file = join(webDistDir, pagesDirectory, pageFileOf(path));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, prerenderedHtml(path));
  writeFileSync(`${file}.br`, brotliCompressSync(prerenderedHtml(path)));
}

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, callback) {
    logLines.push(chunk.toString());
    callback();
  },
});

/** Routes standing in for the API's endpoints, to drive the generic layer: parsing, validation, errors. */
const probeRoutes: FastifyPluginAsyncZod = async (app) => {
  // Under /api/v1, so each declares its access (ADR 013); no hook of the real API scopes runs here.
  const config = { access: 'public' } as const;
  app.post('/echo', { config, schema: { body: z.object({ name: z.string().min(1) }) } }, async (request) => ({
    hello: request.body.name,
  }));
  app.post('/no-body', { config }, async () => ({ ok: true }));
  app.get('/crash', { config }, async () => {
    throw new Error('connection to 10.0.0.5 refused: password=hunter2');
  });
  app.get('/closed-deal', { config }, async () => {
    throw new AppError('DEAL_NOT_ACTIVE', 'The deal can no longer be modified', { status: 'completed' });
  });
  app.post('/log-body', { config }, async (request) => {
    request.log.info({ body: request.body, headers: request.headers }, 'probe body');
    return { ok: true };
  });
};

/** A plugin with its own error handler, as /auth/v1 has: the root handler must leave it alone. */
const scopedRoutes: FastifyPluginAsyncZod = async (app) => {
  app.setErrorHandler((error, _request, reply) =>
    reply.status(418).send({ scoped: true, msg: (error as Error).message }),
  );
  app.get('/fail', async () => {
    throw new Error('scoped failure');
  });
};

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({
    database,
    clock: () => now,
    config: { webDistDir, logFormat: 'json' },
    logger: createLogger('info', logStream),
  });
  app = testApp.app;
  await app.register(probeRoutes, { prefix: '/api/v1/probe' });
  await app.register(scopedRoutes, { prefix: '/scoped' });
  await app.ready();
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
  rmSync(webDistDir, { recursive: true, force: true });
});

describe('health', () => {
  it('answers /healthz', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz when the database answers', async () => {
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
  });

  it('answers /readyz with 503 when the database is unreachable', async () => {
    const unreachable = await openDatabase({
      engine: 'postgres',
      url: 'postgres://postgres@127.0.0.1:1/none',
    });
    const down = await buildTestApp({ database: unreachable });
    try {
      const response = await down.app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'unavailable', checks: { database: 'unreachable' } });
      expect(response.body).not.toContain('ECONNREFUSED');
    } finally {
      await down.close();
      await unreachable.close();
    }
  });
});

describe('request ids', () => {
  it('gives every response one, and keeps one a proxy sent', async () => {
    const fresh = await app.inject({ method: 'GET', url: '/healthz' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'lb-1234.5' },
    });
    expect(kept.headers['x-request-id']).toBe('lb-1234.5');
    const replaced = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': '<script>alert(1)</script>' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('security headers', () => {
  it('sends a Content-Security-Policy the SPA runs under, and no framing', async () => {
    const response = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const directives = Object.fromEntries(
      String(response.headers['content-security-policy'])
        .split(';')
        .map((directive) => {
          const [name = '', ...values] = directive.trim().split(/\s+/);
          return [name, values.join(' ')];
        }),
    );
    expect(directives).toMatchObject({
      'default-src': "'self'",
      // The pre-rendered pages' session hint, by the hash of its exact text (and nothing else inline).
      'script-src': `'self' 'sha256-${createHash('sha256').update(sessionHintScript).digest('base64')}'`,
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data: blob:",
      'connect-src': "'self'",
      'frame-ancestors': "'none'",
      'object-src': "'none'",
    });
    expect(directives).not.toHaveProperty('upgrade-insecure-requests');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('asks for HTTPS only when the public URL is HTTPS', async () => {
    const secure = await buildTestApp({ database, env: { PUBLIC_URL: 'https://covenant.example' } });
    try {
      const response = await secure.app.inject({ method: 'GET', url: '/healthz' });
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(response.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      await secure.close();
    }
  });
});

describe('CORS', () => {
  it("lets the Supabase auth client's preflight through", async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/auth/v1/token?grant_type=password',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'authorization,apikey,content-type,x-client-info,x-supabase-api-version',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toContain('POST');
    const allowed = String(response.headers['access-control-allow-headers']).split(/,\s*/);
    expect(allowed).toEqual(
      expect.arrayContaining([
        'authorization',
        'apikey',
        'content-type',
        'x-client-info',
        'x-supabase-api-version',
      ]),
    );
  });

  it('exposes the API version header to scripts', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { origin: 'http://localhost:5173' },
    });
    expect(response.headers['access-control-expose-headers']).toContain('X-Supabase-Api-Version');
  });
});

describe('the web app', () => {
  it.each([
    '/trading',
    '/settings/api-keys',
    '/trading/deals/0b6f1c2e',
    '/staff/inbox/42/',
    '/Trading',
    '/auth?next=/trading',
    '/reset-password?x=1',
  ])(
    'serves index.html for %s (no pre-rendered page: a signed-in page, an address with a query)',
    async (url) => {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html,*/*' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(indexHtml);
    },
  );

  it.each([
    '/no-such-page',
    '/no-such-page?tab=x',
    '/features/more',
    '/trading/deals',
    '/trading/deals/1/2',
    '/pages',
    '/index.html/x',
  ])('answers %s, which no route of the app matches, with the not-found page and 404', async (url) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await app.inject({ method, url, headers: { accept: 'text/html,*/*' } });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain(
        `script-src 'self' ${sessionHintSource};`,
      );
      if (method === 'GET') expect(response.body).toBe(notFoundHtml);
    }
    const gzipped = await app.inject({
      method: 'GET',
      url,
      headers: { accept: 'text/html', 'accept-encoding': 'gzip' },
    });
    expect(gzipped.statusCode).toBe(404);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(notFoundHtml);
  });

  it('gives the not-found page and the route patterns no address of their own', async () => {
    for (const url of ['/404.html', '/routes.json']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    }
  });

  // The dev mailbox's pages are the server's own here (no SMTP server, not production): its routes
  // answer before the web app does.
  it.each(
    publicPaths.filter((path) => !path.startsWith('/dev/')).map((path) => [renderedPathOf(path), path]),
  )('answers %s with its pre-rendered page, under the same security headers', async (url, path) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await app.inject({ method, url, headers: { accept: 'text/html,*/*' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain(
        `script-src 'self' ${sessionHintSource};`,
      );
      if (method === 'HEAD') continue;
      expect(response.body).toBe(prerenderedHtml(path));
      // No inline script: every script of the page has a src, which the policy allows.
      expect(response.body.match(/<script\b[^>]*>/g)?.every((tag) => / src="\/assets\//.test(tag))).toBe(
        true,
      );
    }
    const home = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const root = await app.inject({ method: 'GET', url: '/index.html', headers: { accept: 'text/html' } });
    expect(home.body).not.toBe(root.body);
  });

  it('sends a pre-rendered page in the compressed copy the browser accepts, with a trailing slash too', async () => {
    const page = await app.inject({
      method: 'GET',
      url: '/contact/',
      headers: { accept: 'text/html', 'accept-encoding': 'gzip, br' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(prerenderedHtml('/contact'));
  });

  it('gives the pre-rendered pages no address of their own', async () => {
    for (const url of ['/pages/contact.html', '/pages/index.html', '/pages/dev/mailbox/[id].html']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect(response.statusCode, url).toBe(404);
    }
  });

  it('lets browsers keep hashed assets forever, and revalidate other files', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/index-Bx12cd34.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.body).toBe('console.log("app")');
    const icon = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['deflate', undefined],
    ['', undefined],
  ])(
    'sends the compressed copy of a script that Accept-Encoding "%s" asks for (%s)',
    async (accepted, encoding) => {
      const asset = await app.inject({
        method: 'GET',
        url: '/assets/index-Bx12cd34.js',
        headers: accepted ? { 'accept-encoding': accepted } : {},
      });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-encoding']).toBe(encoding);
      expect(asset.headers['content-type']).toContain('javascript');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.vary).toContain('accept-encoding');
      const decoded =
        encoding === 'br'
          ? brotliDecompressSync(asset.rawPayload)
          : encoding === 'gzip'
            ? gunzipSync(asset.rawPayload)
            : asset.rawPayload;
      expect(decoded.toString()).toBe(script);
    },
  );

  it.each(['/index.html', '/trading'])(
    'sends index.html gzipped for %s, still revalidated on each load',
    async (url) => {
      const page = await app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' },
      });
      expect(page.statusCode).toBe(200);
      // No brotli copy of this page: the gzip one is sent.
      expect(page.headers['content-encoding']).toBe('gzip');
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(gunzipSync(page.rawPayload).toString()).toBe(indexHtml);
    },
  );

  it('gives the compressed copies no address of their own', async () => {
    for (const url of ['/assets/index-Bx12cd34.js.br', '/assets/index-Bx12cd34.js.gz', '/index.html.gz']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect(response.statusCode, url).toBe(404);
    }
  });

  it('never serves a source map, even one left in the build folder', async () => {
    for (const accept of ['*/*', 'text/html']) {
      const response = await app.inject({
        method: 'GET',
        url: '/assets/index-Bx12cd34.js.map',
        headers: { accept },
      });
      expect(response.body, accept).not.toContain('"sources"');
      if (accept === '*/*') expect(response.statusCode).toBe(404);
    }
  });

  it.each([
    ['an API path', '/api/v1/nothing-here', 'text/html'],
    ['a dev path', '/dev/nothing-here', 'text/html'],
    ['a missing file fetched by a script', '/assets/missing.js', '*/*'],
  ])('answers 404 in JSON for %s', async (_case, url, accept) => {
    const response = await app.inject({ method: 'GET', url, headers: { accept } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: {
        code: 'NOT_FOUND',
        message: `No route GET ${url}`,
        details: null,
        timestamp: now.toISOString(),
      },
    });
  });

  it("leaves unknown /auth/v1 paths to the auth API's own not-found answer", async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/auth/v1/nothing-here',
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found', error_code: 'not_found' });
  });

  it('serves only the APIs when the web app is not built', async () => {
    const apiOnly = await buildTestApp({ database, config: { webDistDir: join(webDistDir, 'missing') } });
    try {
      const response = await apiOnly.app.inject({
        method: 'GET',
        url: '/',
        headers: { accept: 'text/html' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    } finally {
      await apiOnly.close();
    }
  });
});

describe('bad input', () => {
  const json = { 'content-type': 'application/json' };
  it.each([
    { input: 'malformed JSON', headers: json, payload: '{"name": "x",', status: 400, code: 'INVALID_JSON' },
    {
      input: 'prototype poisoning',
      headers: json,
      payload: '{"name":"x","__proto__":{"admin":true}}',
      status: 400,
      code: 'INVALID_JSON',
    },
    { input: 'a JSON array', headers: json, payload: '[1,2]', status: 400, code: 'VALIDATION_FAILED' },
    { input: 'a wrong type', headers: json, payload: '{"name": 5}', status: 400, code: 'VALIDATION_FAILED' },
    { input: 'a missing field', headers: json, payload: '{}', status: 400, code: 'VALIDATION_FAILED' },
    { input: 'an empty body', headers: json, payload: '', status: 400, code: 'VALIDATION_FAILED' },
    {
      input: 'an unsupported content type',
      headers: { 'content-type': 'application/xml' },
      payload: '<name>x</name>',
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    },
    {
      input: 'a body over 1 MiB',
      headers: json,
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    },
  ])(
    'answers $input with $status $code in the API error shape',
    async ({ headers, payload, status, code }) => {
      const response = await app.inject({ method: 'POST', url: '/api/v1/probe/echo', headers, payload });
      expect(response.statusCode).toBe(status);
      const { error } = response.json();
      expect(Object.keys(error).sort()).toEqual(['code', 'details', 'message', 'timestamp']);
      expect(error).toMatchObject({ code, message: expect.any(String), timestamp: now.toISOString() });
      expect(response.body).not.toMatch(/at .*\.(ts|js):\d+/);
    },
  );

  it('names the invalid fields', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/probe/echo',
      headers: json,
      payload: '{"name": 5}',
    });
    expect(response.json().error.details).toEqual({
      in: 'body',
      issues: [{ path: '/name', message: expect.any(String) }],
    });
  });

  it('accepts a valid body, and an empty JSON body where none is needed', async () => {
    const echo = await app.inject({
      method: 'POST',
      url: '/api/v1/probe/echo',
      headers: json,
      payload: '{"name":"Ada"}',
    });
    expect(echo.json()).toEqual({ hello: 'Ada' });
    const empty = await app.inject({ method: 'POST', url: '/api/v1/probe/no-body', headers: json });
    expect(empty.statusCode).toBe(200);
  });

  it('answers an unexpected failure with a bare 500, keeping the details in the log', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/probe/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: {
        code: 'INTERNAL_ERROR',
        message: 'Internal server error',
        details: null,
        timestamp: now.toISOString(),
      },
    });
    expect(logLines.join('')).toContain('connection to 10.0.0.5 refused: password=[redacted]');
    expect(logLines.join('')).not.toContain('hunter2');
  });

  it('answers a business error with its code, status, message and details', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/probe/closed-deal' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: {
        code: 'DEAL_NOT_ACTIVE',
        message: 'The deal can no longer be modified',
        details: { status: 'completed' },
        timestamp: now.toISOString(),
      },
    });
  });

  it("leaves a plugin's own error handler in charge of its routes", async () => {
    const response = await app.inject({ method: 'GET', url: '/scoped/fail' });
    expect(response.statusCode).toBe(418);
    expect(response.json()).toEqual({ scoped: true, msg: 'scoped failure' });
  });
});

describe('logs', () => {
  it('carry request ids and never credentials', async () => {
    logLines.length = 0;
    await app.inject({
      method: 'POST',
      url: '/api/v1/probe/log-body?token=link-token-123&type=signup',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer header-jwt-456',
        cookie: 'session=cookie-789',
        'x-request-id': 'trace-42',
      },
      payload: JSON.stringify({
        email: 'ada@example.com',
        password: 'correct horse',
        refresh_token: 'refresh-abc',
        nested: { access_token: 'access-def' },
      }),
    });
    const written = logLines.join('');
    for (const secret of [
      'link-token-123',
      'header-jwt-456',
      'cookie-789',
      'correct horse',
      'refresh-abc',
      'access-def',
    ]) {
      expect(written).not.toContain(secret);
    }
    const lines = logLines.map((line) => JSON.parse(line));
    expect(lines.every((line) => line.reqId === 'trace-42')).toBe(true);
    expect(lines.find((line) => line.msg === 'probe body').body.email).toBe('ada@example.com');
    expect(lines.find((line) => line.msg === 'request completed').req.url).toBe(
      '/api/v1/probe/log-body?token=[redacted]&type=signup',
    );
  });
});

describe('closing', () => {
  it('refuses new connections but finishes the requests in flight', async () => {
    const closing = await buildTestApp({ database });
    let arrived: () => void = () => {};
    const requestArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let release: () => void = () => {};
    closing.app.get('/api/v1/slow', { config: { access: 'public' } }, async () => {
      arrived();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { finished: true };
    });
    const address = await closing.app.listen({ port: 0, host: '127.0.0.1' });
    const inFlight = fetch(`${address}/api/v1/slow`);
    await requestArrived;
    const closed = closing.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(getOnNewConnection(`${address}/healthz`)).rejects.toThrow('ECONNREFUSED');
    release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    await closed;
  });
});

/** A GET on a connection of its own (fetch would wait for the busy keep-alive connection). */
function getOnNewConnection(url: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode);
    }).on('error', reject);
  });
}
