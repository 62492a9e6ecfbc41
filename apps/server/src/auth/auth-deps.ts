import type { Db } from '@covenant/db';
import type { Config } from '../config.js';
import type { Mailer } from '../email/mailer.js';
import type { RateLimiter } from '../plugins/rate-limit/rate-limiter.js';
import type { BackgroundTasks } from './background-tasks.js';
import type { SigningKey } from './load-signing-key.js';
import type { OpenIdProvider } from './open-id-provider.js';
import type { AuthRateLimits } from './rate-limits.js';

/** Everything the auth use cases touch outside themselves, handed in so tests can choose each part. */
export interface AuthDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'auth'>;
  mailer: Mailer;
  signingKey: SigningKey;
  /** Seals and opens the TOTP secrets in `mfa_factors` (ADR 018). */
  fileMasterKey: Buffer;
  rateLimiter: Pick<RateLimiter, 'consume' | 'refund'>;
  rateLimits: AuthRateLimits;
  /** Waits the sign-in back-off; tests hand in one that only records the wait. */
  sleep: (milliseconds: number) => Promise<void>;
  /** E-mails whose sending must not show in the answer's timing. */
  background: BackgroundTasks;
  now: () => Date;
  /** "Continue with Google"; undefined when Google sign-in is not configured. */
  google: OpenIdProvider | undefined;
}

/** What the app may change in the auth service's limits (tests shrink them); the rest is fixed. */
export type AuthLimits = Partial<Pick<AuthDeps, 'rateLimits' | 'sleep'>>;
