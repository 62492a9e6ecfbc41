import type { Db } from '@covenant/db';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Mailer } from '../email/mailer.js';
import type { RateLimiter } from '../plugins/rate-limit/rate-limiter.js';
import { defaultSupportRateLimits, type SupportRateLimits } from './enforce-support-rate-limits.js';

/** What the support use cases touch outside themselves, handed in so tests can choose each part. */
export interface SupportDeps {
  db: Db;
  mailer: Mailer;
  rateLimiter: Pick<RateLimiter, 'consume'>;
  rateLimits: SupportRateLimits;
  now: () => Date;
  logger: Pick<FastifyBaseLogger, 'error'>;
}

export function createSupportDeps(app: FastifyInstance): SupportDeps {
  return {
    db: app.database.db,
    mailer: app.mailer,
    rateLimiter: app.rateLimiter,
    rateLimits: defaultSupportRateLimits,
    now: app.clock,
    logger: app.log,
  };
}
