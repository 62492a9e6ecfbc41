import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers and CORS. The CSP fits the SPA: its own scripts only; inline styles allowed
 * because sonner injects a <style> element; API calls to this origin only.
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
        scriptSrc: ["'self'"],
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
  // On every request, before routing decides anything, so error and not-found answers carry them too.
  app.addHook('onRequest', (request, reply, done) => {
    // Helmet throws its errors (since 8.1); the callback only says it is done.
    applySecureHeaders(request.raw, reply.raw, () => done());
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
