import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { count, eq } from 'drizzle-orm';
import { generateApiKeyToken } from '../api/api-key-token.js';
import { type ApiKeyView, presentApiKey } from './api-key-view.js';

/** Enough for every integration a trader runs; more usually means keys are not being revoked. */
export const maxApiKeysPerUser = 25;

/** Creates a named key; the key itself is in this answer only, the database keeps its hash. */
export async function createApiKey(
  deps: { db: Db; now: () => Date },
  userId: string,
  name: string,
): Promise<ApiKeyView & { key: string }> {
  const [existing] = await deps.db
    .select({ n: count() })
    .from(schema.apiKeys)
    .where(eq(schema.apiKeys.userId, userId));
  if ((existing?.n ?? 0) >= maxApiKeysPerUser) {
    throw new AppError('CONFLICT', `At most ${maxApiKeysPerUser} API keys; revoke one first`);
  }
  const token = generateApiKeyToken();
  const [row] = await deps.db
    .insert(schema.apiKeys)
    .values({ userId, name, prefix: token.prefix, keyHash: token.hash, createdAt: deps.now() })
    .returning();
  return { ...presentApiKey(row!), key: token.key };
}
