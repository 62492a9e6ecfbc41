import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import type { ApiKey } from './get-api-keys.js';

// `key` is present only in this answer: the server keeps a hash.
export type CreatedApiKey = ApiKey & { key: string };

export function createApiKey(api: ApiClient, name: string): Promise<CreatedApiKey> {
  return api.post<CreatedApiKey>('/api-keys', { body: { name }, idempotencyKey: crypto.randomUUID() });
}

export function useCreateApiKey() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => createApiKey(api, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api-keys'] }),
  });
}
