import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

// What a key may do (ADR 013): read the API, or read and act on deals. Never the sensitive actions.
export type ApiKeyScope = 'read' | 'trade';

// A key as listed: the secret itself is never returned again after creation, only its prefix.
export type ApiKey = {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  scopes: ApiKeyScope[];
};

export async function getApiKeys(api: ApiClient): Promise<ApiKey[]> {
  const { data } = await api.get<{ data: ApiKey[] }>('/api-keys');
  return data;
}

export function getApiKeysQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['api-keys', userId],
    queryFn: () => getApiKeys(api),
    enabled: Boolean(userId),
  });
}

export function useApiKeys() {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getApiKeysQueryOptions(api, user?.id));
}
