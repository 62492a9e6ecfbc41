import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from './auth-deps.js';
import { loadSigningKey, type SigningKey } from './load-signing-key.js';
import { defaultAuthRateLimits } from './rate-limits.js';

export interface AuthRoutesOptions {
  /** The access-token key; by default the configured one or the one kept in DATA_DIR/keys. */
  signingKey?: SigningKey;
}

/** Gathers the auth use cases' dependencies from the app's shared services. */
export async function createAuthDeps(app: FastifyInstance, options: AuthRoutesOptions): Promise<AuthDeps> {
  const { config } = app;
  return {
    db: app.database.db,
    config,
    mailer: app.mailer,
    signingKey:
      options.signingKey ??
      (await loadSigningKey({ jwtPrivateJwk: config.auth.jwtPrivateJwk, dataDir: config.dataDir })),
    rateLimiter: app.rateLimiter,
    rateLimits: defaultAuthRateLimits,
    now: app.clock,
  };
}
