import { type Db, schema } from '@covenant/db';
import { desc, eq } from 'drizzle-orm';
import { type ApiKeyView, presentApiKey } from './api-key-view.js';

/** The caller's keys, newest first, without the keys themselves. */
export async function listApiKeys(db: Db, userId: string): Promise<ApiKeyView[]> {
  const rows = await db
    .select()
    .from(schema.apiKeys)
    .where(eq(schema.apiKeys.userId, userId))
    .orderBy(desc(schema.apiKeys.createdAt));
  return rows.map(presentApiKey);
}
