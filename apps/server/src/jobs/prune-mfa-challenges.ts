import { type Db, schema } from '@covenant/db';
import { lt } from 'drizzle-orm';
import { z } from 'zod';
import type { JobDefinition } from './job-definition.js';

/**
 * Deletes second-factor challenges once they can no longer be answered (each lives five minutes, and
 * a verification refuses one once past its expiry): any signed-in account can open them, so only this
 * keeps the table from growing without bound.
 */
export function createPruneMfaChallengesJob(db: Db, clock: () => Date): JobDefinition {
  return {
    name: 'prune-mfa-challenges',
    payload: z.object({}),
    cron: '37 * * * *',
    handle: async () => {
      await db.delete(schema.mfaChallenges).where(lt(schema.mfaChallenges.expiresAt, clock()));
    },
  };
}
