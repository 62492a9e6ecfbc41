import type { AuthDeps } from './auth-deps.js';
import { AuthError } from './auth-error.js';

export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

/** Limits per client IP and per account (e-mail address or user) on the endpoints worth abusing. */
export interface AuthRateLimits {
  signInPerIp: RateLimitRule;
  signInPerAccount: RateLimitRule;
  signUpPerIp: RateLimitRule;
  signUpPerAccount: RateLimitRule;
  /** Endpoints that send e-mail: recover, otp, resend, reauthenticate. */
  emailPerIp: RateLimitRule;
  emailPerAccount: RateLimitRule;
  /** One-time code and link verification; codes are short, so guessing must stay slow. */
  verifyPerIp: RateLimitRule;
  verifyPerAccount: RateLimitRule;
  refreshPerIp: RateLimitRule;
  mfaVerifyPerUser: RateLimitRule;
}

export const defaultAuthRateLimits: AuthRateLimits = {
  signInPerIp: { limit: 30, windowSeconds: 300 },
  signInPerAccount: { limit: 10, windowSeconds: 300 },
  signUpPerIp: { limit: 30, windowSeconds: 3600 },
  signUpPerAccount: { limit: 5, windowSeconds: 3600 },
  emailPerIp: { limit: 30, windowSeconds: 3600 },
  emailPerAccount: { limit: 5, windowSeconds: 3600 },
  verifyPerIp: { limit: 60, windowSeconds: 300 },
  verifyPerAccount: { limit: 10, windowSeconds: 300 },
  refreshPerIp: { limit: 300, windowSeconds: 300 },
  mfaVerifyPerUser: { limit: 10, windowSeconds: 300 },
};

/** Counts one request against `rule` for `key`; over the limit it fails with GoTrue's 429. */
export async function enforceRateLimit(deps: AuthDeps, rule: RateLimitRule, key: string): Promise<void> {
  const result = await deps.rateLimiter.consume(`auth:${key}`, rule.limit, rule.windowSeconds);
  if (!result.allowed) {
    throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached', {
      retryAfterSeconds: result.retryAfterSeconds,
    });
  }
}
