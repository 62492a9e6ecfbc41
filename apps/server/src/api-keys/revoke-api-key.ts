import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';

/** Deletes one of the caller's keys; it stops working with the next request. */
export async function revokeApiKey(db: Db, userId: string, keyId: string): Promise<void> {
  const deleted = await db
    .delete(schema.apiKeys)
    .where(and(eq(schema.apiKeys.id, keyId), eq(schema.apiKeys.userId, userId)))
    .returning({ id: schema.apiKeys.id });
  if (deleted.length === 0) throw new AppError('NOT_FOUND', 'API key not found');
}
