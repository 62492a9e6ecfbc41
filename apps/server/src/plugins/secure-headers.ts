import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sessionHintScript } from '@covenant/domain';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * The pre-rendered pages' one inline script (the session hint, which keeps a signed-in visitor from
 * seeing Sign In before the app loads), allowed by its hash and by nothing else.
 */
export const sessionHintSource = `'sha256-${createHash('sha256').update(sessionHintScript).digest('base64')}'`;

/**
 * Security headers and CORS. The CSP fits the SPA: its own scripts only, and the session hint by its
 * hash; inline styles allowed because sonner injects a <style> element; API calls to this origin only.
 */
export async function registerSecureHeaders(app: FastifyInstance, publicUrl: string): Promise<void> {
  const https = publicUrl.startsWith('https:');
  // Built once: helmet's own Fastify plugin builds this middleware again for every request, which
  // parsed the policy on each one (about 1.5% of the server's CPU on the busiest API list).
  const applySecureHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", sessionHintSource],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // Over plain http (local use) this would send the browser to an https origin that is not there.
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
  });
  // Helmet's headers do not depend on the request (no nonces): learned once, from helmet itself.
  const { set, removed } = headersOf(applySecureHeaders);
  // On every request, before routing decides anything, so error and not-found answers carry them too.
  app.addHook('onRequest', (_request, reply, done) => {
    const response = reply.raw;
    for (const [name, value] of set) response.setHeader(name, value);
    for (const name of removed) response.removeHeader(name);
    done();
  });
  // Tokens travel in the Authorization header, never in cookies, so any origin may call the APIs:
  // a foreign page cannot act for a user without holding that user's token.
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'authorization',
      'apikey',
      'content-type',
      'x-client-info',
      'x-supabase-api-version',
      'x-request-id',
      'idempotency-key',
    ],
    exposedHeaders: ['X-Supabase-Api-Version', 'X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
}

type HelmetMiddleware = ReturnType<typeof helmet>;

/**
 * What a helmet middleware does to every response: the headers it sets, in its order, and those it
 * removes. Read by running it once on a stand-in response that records its calls; helmet's policies
 * are fixed when it is built, so every later response gets the same. Setting them from this list
 * spares each request helmet's dozen middleware calls.
 */
export function headersOf(middleware: HelmetMiddleware): {
  set: [string, string][];
  removed: string[];
} {
  const set = new Map<string, string>();
  const removed = new Set<string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      if (typeof value !== 'string') throw new Error(`helmet set ${name} to a value that is not text`);
      removed.delete(name.toLowerCase());
      set.set(name, value);
      return recorder;
    },
    removeHeader(name: string) {
      for (const key of set.keys()) if (key.toLowerCase() === name.toLowerCase()) set.delete(key);
      removed.add(name.toLowerCase());
    },
  };
  let finished = false;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => {
    finished = true;
  });
  // Helmet throws its errors (since 8.1) and calls back at once; anything else would be a new helmet.
  if (!finished) throw new Error('helmet did not finish on the spot');
  return { set: [...set], removed: [...removed] };
}
