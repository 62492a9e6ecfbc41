import type { Dispute } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

/** `POST /staff/disputes/{id}/assign`: the caller takes the case. */
export function assignDispute(api: ApiClient, id: string) {
  return api.post<Dispute>(`/staff/disputes/${encodeURIComponent(id)}/assign`);
}

export function useAssignDispute(id: string) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => assignDispute(api, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['staff-disputes'] }),
  });
}
