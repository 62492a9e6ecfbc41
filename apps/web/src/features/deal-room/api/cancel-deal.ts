import type { Deal } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** `POST /deals/{id}/cancel` with the reason that goes into the audit trail. */
export function cancelDeal(api: ApiClient, dealId: string, reason: string, idempotencyKey: string) {
  return api.post<Deal>(`/deals/${encodeURIComponent(dealId)}/cancel`, { body: { reason }, idempotencyKey });
}

export function useCancelDeal(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => cancelDeal(api, dealId, reason, crypto.randomUUID()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
