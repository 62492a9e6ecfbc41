import { AppError } from '@covenant/domain';
import type { FastifyReply } from 'fastify';
import {
  decideRateLimit,
  type RateLimitDecision,
  type RateLimiter,
} from '../plugins/rate-limit/rate-limiter.js';

/** /api/v1 limits are per hour. */
export const rateLimitWindowSeconds = 3600;

/**
 * Puts the X-RateLimit-* headers on the reply and refuses with 429 RATE_LIMITED and Retry-After
 * once the window's limit is used up.
 */
export function enforceRateLimit(reply: FastifyReply, limit: number, decision: RateLimitDecision): void {
  reply.header('X-RateLimit-Limit', String(limit));
  reply.header('X-RateLimit-Remaining', String(decision.remaining));
  reply.header('X-RateLimit-Reset', String(Math.ceil(decision.resetAt.getTime() / 1000)));
  if (!decision.allowed) {
    reply.header('Retry-After', String(decision.retryAfterSeconds));
    throw new AppError('RATE_LIMITED', 'Too many requests; try again later', {
      limit,
      retry_after_seconds: decision.retryAfterSeconds,
    });
  }
}

/** Counts one request against `key` and enforces `limit`. */
export async function applyRateLimit(
  rateLimiter: Pick<RateLimiter, 'consume'>,
  reply: FastifyReply,
  key: string,
  limit: number,
): Promise<void> {
  enforceRateLimit(reply, limit, await rateLimiter.consume(key, limit, rateLimitWindowSeconds));
}

/**
 * The same count judged against a lower limit: a request is counted against the highest tier's
 * limit before the caller's tier is known, then decided for the tier.
 */
export function decisionUnder(
  counted: RateLimitDecision,
  countedLimit: number,
  limit: number,
  now: Date,
): RateLimitDecision {
  if (!counted.allowed) return { ...counted, remaining: 0 };
  return decideRateLimit(countedLimit - counted.remaining, limit, counted.resetAt, now);
}
