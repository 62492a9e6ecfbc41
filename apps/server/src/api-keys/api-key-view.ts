import type { schema } from '@covenant/db';

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  scopes: schema.ApiKeyScope[];
}

export function presentApiKey(row: typeof schema.apiKeys.$inferSelect): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    scopes: row.scopes,
  };
}
