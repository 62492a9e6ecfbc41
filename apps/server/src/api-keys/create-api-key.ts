import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { count, eq } from 'drizzle-orm';
import { generateApiKeyToken } from '../api/api-key-token.js';
import { type ApiKeyView, presentApiKey } from './api-key-view.js';

/** Enough for every integration a trader runs; more usually means keys are not being revoked. */
export const maxApiKeysPerUser = 25;

/** The scopes a key gets for what was asked: `trade` without `read` would be of no use, so it brings it. */
export function normaliseScopes(asked: readonly schema.ApiKeyScope[]): schema.ApiKeyScope[] {
  return asked.includes('trade') ? ['read', 'trade'] : ['read'];
}

/** Creates a named key; the key itself is in this answer only, the database keeps its hash. */
export async function createApiKey(
  deps: { db: Db; now: () => Date },
  userId: string,
  input: { name: string; scopes: readonly schema.ApiKeyScope[] },
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
    .values({
      userId,
      name: input.name,
      prefix: token.prefix,
      keyHash: token.hash,
      scopes: normaliseScopes(input.scopes),
      createdAt: deps.now(),
    })
    .returning();
  return { ...presentApiKey(row!), key: token.key };
}
