import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from './auth-deps.js';
import { defaultAuthRateLimits } from './rate-limits.js';

/** Gathers the auth use cases' dependencies from the app's shared services. */
export function createAuthDeps(app: FastifyInstance): AuthDeps {
  const { config } = app;
  return {
    db: app.database.db,
    config,
    mailer: app.mailer,
    signingKey: app.signingKey,
    rateLimiter: app.rateLimiter,
    rateLimits: defaultAuthRateLimits,
    now: app.clock,
  };
}
