import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import type { TravelItem } from './travel-list.js';

/** `POST /api/v1/deals/{id}/travel/{item}/cancel`: withdraws a request that is not paid yet. */
export function cancelTravel(api: ApiClient, dealId: string, itemId: string) {
  return api.post<TravelItem>(
    `/deals/${encodeURIComponent(dealId)}/travel/${encodeURIComponent(itemId)}/cancel`,
  );
}

export function useCancelTravel(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (itemId: string) => cancelTravel(api, dealId, itemId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
