import type { Database } from '@covenant/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const databaseTimeoutMs = 2000;

/**
 * Probes for load balancers and orchestrators: /healthz answers as long as the process serves
 * requests; /readyz also needs the database, so a replica without one is taken out of rotation.
 */
export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, options) => {
  app.get('/healthz', { schema: { response: { 200: z.object({ status: z.literal('ok') }) } } }, async () => ({
    status: 'ok' as const,
  }));

  const readiness = z.object({
    status: z.enum(['ready', 'unavailable']),
    checks: z.object({ database: z.enum(['ok', 'unreachable']) }),
  });
  app.get('/readyz', { schema: { response: { 200: readiness, 503: readiness } } }, async (request, reply) => {
    try {
      await withTimeout(options.database.ping(), databaseTimeoutMs);
      return { status: 'ready' as const, checks: { database: 'ok' as const } };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.status(503).send({ status: 'unavailable', checks: { database: 'unreachable' } });
    }
  });
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
