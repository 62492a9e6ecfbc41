import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import type { ApiKey, ApiKeyScope } from './get-api-keys.js';

// `key` is present only in this answer: the server keeps a hash.
export type CreatedApiKey = ApiKey & { key: string };

export type NewApiKey = { name: string; scopes: ApiKeyScope[] };

export function createApiKey(api: ApiClient, key: NewApiKey): Promise<CreatedApiKey> {
  return api.post<CreatedApiKey>('/api-keys', { body: key, idempotencyKey: crypto.randomUUID() });
}

export function useCreateApiKey() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: NewApiKey) => createApiKey(api, key),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api-keys'] }),
  });
}
