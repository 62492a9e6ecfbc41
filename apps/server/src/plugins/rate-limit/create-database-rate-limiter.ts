import { type Db, schema } from '@covenant/db';
import { sql } from 'drizzle-orm';
import { decideRateLimit, type RateLimiter } from './rate-limiter.js';

const { rateLimits } = schema;

/** Rate limits kept in the `rate_limits` table: one atomic upsert per request. */
export function createDatabaseRateLimiter(db: Db, clock: () => Date): RateLimiter {
  return {
    consume: async (key, limit, windowSeconds) => {
      const now = clock();
      const windowEnd = new Date(now.getTime() + windowSeconds * 1000);
      const windowEnded = sql`${rateLimits.resetAt} <= ${now.toISOString()}`;
      const [row] = await db
        .insert(rateLimits)
        .values({ key, count: 1, resetAt: windowEnd })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when ${windowEnded} then 1 else ${rateLimits.count} + 1 end`,
            resetAt: sql`case when ${windowEnded} then excluded.reset_at else ${rateLimits.resetAt} end`,
          },
        })
        .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
      if (!row) throw new Error('rate limit upsert returned no row');
      return decideRateLimit(row.count, limit, row.resetAt, now);
    },
    close: async () => {},
  };
}
