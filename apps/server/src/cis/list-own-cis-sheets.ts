import { schema } from '@covenant/db';
import type { CisSheet } from '@covenant/domain';
import { desc, eq } from 'drizzle-orm';
import type { CisDeps } from './cis-deps.js';
import { presentCisSheets } from './present-cis-sheets.js';

/** The caller's own sheets, newest first. */
export async function listOwnCisSheets(
  deps: Pick<CisDeps, 'db' | 'fileStore'>,
  ownerId: string,
): Promise<CisSheet[]> {
  const rows = await deps.db
    .select()
    .from(schema.cisSheets)
    .where(eq(schema.cisSheets.ownerId, ownerId))
    .orderBy(desc(schema.cisSheets.createdAt), desc(schema.cisSheets.id));
  return presentCisSheets(deps, rows);
}
