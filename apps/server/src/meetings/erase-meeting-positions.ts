import { type Db, schema } from '@covenant/db';
import { and, eq, isNotNull, lt, notExists, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { JobDefinition } from '../jobs/job-definition.js';

/**
 * Erases the positions of check-ins older than the retention the privacy policy states, unless a
 * dispute about the deal is open (the mediators may need them until it is decided). What stays:
 * the check-in itself, its distance and whether it was within the radius.
 */
export async function eraseMeetingPositions(db: Db, now: Date, retentionDays: number): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const erased = await db
    .update(schema.meetingCheckIns)
    .set({ positionSealed: null, positionErasedAt: now })
    .where(
      and(
        isNotNull(schema.meetingCheckIns.positionSealed),
        lt(schema.meetingCheckIns.checkedInAt, cutoff),
        notExists(
          db
            .select({ one: sql`1` })
            .from(schema.dealDisputes)
            .where(
              and(
                eq(schema.dealDisputes.dealId, schema.meetingCheckIns.dealId),
                eq(schema.dealDisputes.status, 'open'),
              ),
            ),
        ),
      ),
    )
    .returning({ dealId: schema.meetingCheckIns.dealId });
  return erased.length;
}

/** Runs the erasure hourly. */
export function createEraseMeetingPositionsJob(
  db: Db,
  clock: () => Date,
  retentionDays: number,
): JobDefinition {
  return {
    name: 'erase-meeting-positions',
    payload: z.object({}),
    cron: '41 * * * *',
    handle: async () => {
      await eraseMeetingPositions(db, clock(), retentionDays);
    },
  };
}
