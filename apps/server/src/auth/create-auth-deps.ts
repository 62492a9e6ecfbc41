import { setTimeout as wait } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from './auth-deps.js';
import { createBackgroundTasks } from './background-tasks.js';
import { createOpenIdProvider } from './open-id-provider.js';
import { defaultAuthRateLimits } from './rate-limits.js';

/** Gathers the auth use cases' dependencies from the app's shared services. */
export function createAuthDeps(app: FastifyInstance): AuthDeps {
  const { config } = app;
  const background = createBackgroundTasks(app.log);
  app.addHook('onClose', () => background.settled());
  return {
    db: app.database.db,
    config,
    mailer: app.mailer,
    signingKey: app.signingKey,
    fileMasterKey: app.fileMasterKey,
    rateLimiter: app.rateLimiter,
    rateLimits: app.authLimits.rateLimits ?? defaultAuthRateLimits,
    sleep: app.authLimits.sleep ?? sleep,
    background,
    now: app.clock,
    google: config.auth.google ? createOpenIdProvider(config.auth.google) : undefined,
  };
}

async function sleep(milliseconds: number): Promise<void> {
  if (milliseconds > 0) await wait(milliseconds);
}
