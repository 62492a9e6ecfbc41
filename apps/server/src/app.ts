import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '@covenant/db';
import type { Config } from './config.js';

export interface AppDeps {
  config: Config;
  database: Database;
}

/** Builds the whole HTTP application from its dependencies; `main.ts` and tests both call this. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: deps.config.logLevel },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => {
    await deps.database.ping();
    return { status: 'ready' };
  });
  return app;
}
