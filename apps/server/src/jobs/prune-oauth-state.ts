import { type Db, schema } from '@covenant/db';
import { lte } from 'drizzle-orm';
import { z } from 'zod';
import type { JobDefinition } from './job-definition.js';

/**
 * Deletes what a sign-in with a provider leaves behind once it can no longer be used (ADR 023): flows
 * whose callback never came, PKCE codes never exchanged, and identity links never confirmed by a
 * password sign-in. Each is refused once expired; this only keeps the tables small.
 */
export function createPruneOAuthStateJob(db: Db, clock: () => Date): JobDefinition {
  return {
    name: 'prune-oauth-state',
    payload: z.object({}),
    cron: '23 * * * *',
    handle: async () => {
      const now = clock();
      await db.delete(schema.oauthFlows).where(lte(schema.oauthFlows.expiresAt, now));
      await db.delete(schema.oauthAuthCodes).where(lte(schema.oauthAuthCodes.expiresAt, now));
      await db.delete(schema.pendingIdentityLinks).where(lte(schema.pendingIdentityLinks.expiresAt, now));
    },
  };
}
