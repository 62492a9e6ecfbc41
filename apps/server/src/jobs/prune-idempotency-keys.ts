import { type Db, schema } from '@covenant/db';
import { lt } from 'drizzle-orm';
import { z } from 'zod';
import type { JobDefinition } from './job-definition.js';

/** Idempotency keys are honoured for at least this long (clients retry within a day). */
export const idempotencyKeyLifetimeMs = 24 * 60 * 60 * 1000;

/** Deletes stored idempotent answers older than 24 hours. */
export function createPruneIdempotencyKeysJob(db: Db, clock: () => Date): JobDefinition {
  return {
    name: 'prune-idempotency-keys',
    payload: z.object({}),
    cron: '17 * * * *',
    handle: async () => {
      const cutoff = new Date(clock().getTime() - idempotencyKeyLifetimeMs);
      await db.delete(schema.idempotencyKeys).where(lt(schema.idempotencyKeys.createdAt, cutoff));
    },
  };
}
