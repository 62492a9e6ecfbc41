import type { FastifyInstance } from 'fastify';

/**
 * Replaces Fastify's JSON parser with one that reads an empty body as `{}`: `@supabase/auth-js`
 * declares JSON and sends no body on sign-out and factor removal, which Fastify would refuse.
 * Everything else (prototype-poisoning checks, errors on malformed JSON) stays Fastify's own.
 */
export function acceptJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, {});
      return;
    }
    parseJson(request, text, done);
  });
}
