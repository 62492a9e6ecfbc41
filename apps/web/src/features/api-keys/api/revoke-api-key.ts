import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

export function revokeApiKey(api: ApiClient, id: string): Promise<void> {
  return api.delete(`/api-keys/${encodeURIComponent(id)}`);
}

export function useRevokeApiKey() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeApiKey(api, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api-keys'] }),
  });
}
