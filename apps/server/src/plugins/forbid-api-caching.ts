import type { FastifyInstance } from 'fastify';

/** Paths whose answers carry tokens, keys and personal data. */
const apiPrefixes = ['/api/v1/', '/auth/v1/'];

/**
 * `Cache-Control: no-store` on every answer of /api/v1 and /auth/v1 (ASVS 8.1.1, 8.2.1), errors and
 * 404s included: the Authorization header keeps shared caches from storing most of them, but not
 * the browser's own cache, nor answers to requests without it (sign-in and sign-up return tokens).
 * Set before the route runs, so a route can still declare its own policy: the public signing keys
 * (`/auth/v1/.well-known/jwks.json`) stay cacheable for the ten minutes auth-js keeps them anyway.
 */
export function forbidApiCaching(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const path = `${request.url.split('?')[0]}/`;
    if (apiPrefixes.some((prefix) => path.startsWith(prefix))) reply.header('cache-control', 'no-store');
    done();
  });
}
