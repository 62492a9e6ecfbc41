import { type Db, schema } from '@covenant/db';
import { lte } from 'drizzle-orm';
import { z } from 'zod';
import type { JobDefinition } from './job-definition.js';

/** Deletes the database rate-limit counters whose window has ended, so the table stays small. */
export function createPruneRateLimitsJob(db: Db, clock: () => Date): JobDefinition {
  return {
    name: 'prune-rate-limits',
    payload: z.object({}),
    cron: '*/10 * * * *',
    handle: async () => {
      await db.delete(schema.rateLimits).where(lte(schema.rateLimits.resetAt, clock()));
    },
  };
}
