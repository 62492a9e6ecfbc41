import { type Db, prepareStatement, schema } from '@covenant/db';
import { and, eq, gt, sql } from 'drizzle-orm';
import { decideRateLimit, type RateLimiter } from './rate-limiter.js';

const { rateLimits } = schema;

/**
 * Rate limits kept in the `rate_limits` table: one atomic upsert per request, a named statement so
 * the server parses and plans it once per connection instead of on every request. The upsert runs
 * on every API request, so it goes through `prepareStatement` (no per-call work of drizzle's); its
 * two returned columns are decoded by the columns themselves, as drizzle would.
 */
export function createDatabaseRateLimiter(db: Db, clock: () => Date): RateLimiter {
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  const windowEnded = sql`${rateLimits.resetAt} <= ${now}`;
  const upsertQuery = db
    .insert(rateLimits)
    .values({
      key: sql.placeholder('key'),
      count: 1,
      resetAt: sql`${sql.placeholder('windowEnd')}::timestamptz`,
    })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${windowEnded} then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${windowEnded} then excluded.reset_at else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
  const upsert = prepareStatement(db, 'rate_limit_consume', upsertQuery, (row) => ({
    count: rateLimits.count.mapFromDriverValue(row[0]) as number,
    resetAt: rateLimits.resetAt.mapFromDriverValue(row[1]) as Date,
  }));
  const refund = db
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(
      and(
        eq(rateLimits.key, sql.placeholder('key')),
        gt(rateLimits.count, 0),
        gt(rateLimits.resetAt, sql`${sql.placeholder('now')}::timestamptz`),
      ),
    )
    .prepare('rate_limit_refund');
  return {
    consume: async (key, limit, windowSeconds) => {
      const at = clock();
      const windowEnd = new Date(at.getTime() + windowSeconds * 1000);
      const [row] = await upsert.execute({ key, now: at.toISOString(), windowEnd: windowEnd.toISOString() });
      if (!row) throw new Error('rate limit upsert returned no row');
      return decideRateLimit(row.count, limit, row.resetAt, at);
    },
    refund: async (key) => {
      await refund.execute({ key, now: clock().toISOString() });
    },
    close: async () => {},
  };
}
