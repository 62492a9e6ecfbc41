import type { AuthDeps } from './auth-deps.js';
import { AuthError } from './auth-error.js';

export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

/**
 * How failed sign-ins slow down the next attempts, and when they stop them (ADR 012). Failures are
 * counted in fixed windows; the wait before an attempt's password is checked grows with the
 * failures already counted.
 */
export interface BackOffRule {
  windowSeconds: number;
  /** Failures in a window that cost no wait: people mistype. */
  freeFailures: number;
  /** The wait once the free failures are used; it doubles with each further failure. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Failures in a window after which attempts are refused until it ends; without it, only slowed. */
  limit?: number;
}

/** Limits per client IP and per account (e-mail address or user) on the endpoints worth abusing. */
export interface AuthRateLimits {
  /** Failures of clients without a device cookie of the account, per account (e-mail address). */
  signInFailuresPerAccount: BackOffRule;
  /** Failures of clients without a device cookie of the account, per address (IPv6: per /64). */
  signInFailuresPerNetwork: BackOffRule;
  /** Failures of one known device; past its limit the device is judged like any other client. */
  signInFailuresPerKnownDevice: BackOffRule;
  signUpPerIp: RateLimitRule;
  signUpPerAccount: RateLimitRule;
  /** Endpoints that send e-mail: recover, otp, resend, reauthenticate. */
  emailPerIp: RateLimitRule;
  emailPerAccount: RateLimitRule;
  /** One-time code and link verification; codes are short, so guessing must stay slow. */
  verifyPerIp: RateLimitRule;
  verifyPerAccount: RateLimitRule;
  refreshPerIp: RateLimitRule;
  /** TOTP codes tried (factor verification, reauthentication), per user. */
  mfaVerifyPerUser: RateLimitRule;
  /** Factor challenges opened, per user: each is a row until it expires. */
  mfaChallengePerUser: RateLimitRule;
  /** Sign-ins with a provider (authorize, callback, code exchange): each start stores a flow. */
  oauthPerIp: RateLimitRule;
}

export const defaultAuthRateLimits: AuthRateLimits = {
  // 20 per 15 minutes: any hour overlaps at most five windows, so at most 100 failures an hour
  // (ASVS 2.2.1). The wait is 0, 0, 0, 0.5, 1, 2, then 4 s.
  signInFailuresPerAccount: {
    windowSeconds: 900,
    freeFailures: 3,
    firstDelayMs: 500,
    maxDelayMs: 4000,
    limit: 20,
  },
  // Only slowed: refusing here would let one client keep everyone behind the same address out.
  signInFailuresPerNetwork: { windowSeconds: 900, freeFailures: 10, firstDelayMs: 250, maxDelayMs: 4000 },
  signInFailuresPerKnownDevice: {
    windowSeconds: 900,
    freeFailures: 3,
    firstDelayMs: 500,
    maxDelayMs: 4000,
    limit: 10,
  },
  signUpPerIp: { limit: 30, windowSeconds: 3600 },
  signUpPerAccount: { limit: 5, windowSeconds: 3600 },
  emailPerIp: { limit: 30, windowSeconds: 3600 },
  emailPerAccount: { limit: 5, windowSeconds: 3600 },
  verifyPerIp: { limit: 60, windowSeconds: 300 },
  verifyPerAccount: { limit: 10, windowSeconds: 300 },
  refreshPerIp: { limit: 300, windowSeconds: 300 },
  // As for sign-ins: any hour overlaps at most five 15-minute windows, so at most 100 codes tried
  // an hour (ASVS 2.2.1); 10 per 5 minutes allowed 130.
  mfaVerifyPerUser: { limit: 20, windowSeconds: 900 },
  mfaChallengePerUser: { limit: 20, windowSeconds: 900 },
  oauthPerIp: { limit: 60, windowSeconds: 300 },
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
