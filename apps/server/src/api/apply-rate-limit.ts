import { AppError } from '@covenant/domain';
import type { FastifyReply } from 'fastify';
import type { RateLimiter } from '../plugins/rate-limit/rate-limiter.js';

const hourSeconds = 3600;

/**
 * Counts one /api/v1 request against `key` (an hourly window), puts the X-RateLimit-* headers on the
 * reply, and refuses with 429 RATE_LIMITED and Retry-After once the window's limit is used up.
 */
export async function applyRateLimit(
  rateLimiter: Pick<RateLimiter, 'consume'>,
  reply: FastifyReply,
  key: string,
  limit: number,
): Promise<void> {
  const decision = await rateLimiter.consume(key, limit, hourSeconds);
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
