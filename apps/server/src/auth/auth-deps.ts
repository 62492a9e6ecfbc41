import type { Db } from '@covenant/db';
import type { Config } from '../config.js';
import type { Mailer } from '../email/mailer.js';
import type { RateLimiter } from '../plugins/rate-limit/rate-limiter.js';
import type { SigningKey } from './load-signing-key.js';
import type { AuthRateLimits } from './rate-limits.js';

/** Everything the auth use cases touch outside themselves, handed in so tests can choose each part. */
export interface AuthDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'auth'>;
  mailer: Mailer;
  signingKey: SigningKey;
  rateLimiter: Pick<RateLimiter, 'consume'>;
  rateLimits: AuthRateLimits;
  now: () => Date;
}
