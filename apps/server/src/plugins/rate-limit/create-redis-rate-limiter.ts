import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { decideRateLimit, type RateLimiter } from './rate-limiter.js';

// Atomic in Redis: the first request of a window sets its expiry. Returns the count and the
// milliseconds left in the window.
const consumeScript = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

// Atomic too: a count that expired meanwhile is not brought back to life, and none goes below zero.
const refundScript = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  redis.call('DECR', KEYS[1])
end
return 0
`;

/** Rate limits kept in Redis, shared by every server replica using the same REDIS_URL. */
export function createRedisRateLimiter(
  redisUrl: string,
  clock: () => Date,
  logger: FastifyBaseLogger,
  keyPrefix = 'covenant:rate-limit:',
): RateLimiter {
  // Fail a request quickly rather than queue it while Redis is away.
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  return {
    consume: async (key, limit, windowSeconds) => {
      const now = clock();
      const [count, ttlMs] = (await redis.eval(consumeScript, 1, keyPrefix + key, windowSeconds * 1000)) as [
        number,
        number,
      ];
      return decideRateLimit(count, limit, new Date(now.getTime() + ttlMs), now);
    },
    refund: async (key) => {
      await redis.eval(refundScript, 1, keyPrefix + key);
    },
    close: async () => {
      await redis.quit();
    },
  };
}
