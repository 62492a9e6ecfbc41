export interface RateLimitDecision {
  allowed: boolean;
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Requests left in the current window after this one. */
  remaining: number;
  /** When the current window ends and the count starts again from zero. */
  resetAt: Date;
  /** 0 when allowed; otherwise the seconds until the window ends (for Retry-After). */
  retryAfterSeconds: number;
}

/**
 * Counts requests per key in fixed windows. The database store serves one machine; the Redis store
 * (REDIS_URL) shares the counts between server replicas.
 */
export interface RateLimiter {
  /** Counts one request for `key`; allowed while the window's count is at most `limit`. */
  consume(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision>;
  /**
   * Takes back one request counted for `key` in its current window (never below zero), for counts
   * that keep only failures: an attempt is counted before it is judged, and refunded if it succeeds.
   */
  refund(key: string): Promise<void>;
  close(): Promise<void>;
}

/** The decision for the `count`-th request of a window ending at `resetAt`. */
export function decideRateLimit(count: number, limit: number, resetAt: Date, now: Date): RateLimitDecision {
  const allowed = count <= limit;
  return {
    allowed,
    count,
    remaining: Math.max(0, limit - count),
    resetAt,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
  };
}
