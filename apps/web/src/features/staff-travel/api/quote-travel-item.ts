import type { StaffTravelItem, TravelQuoteRequest } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

/** `POST /staff/travel/{item_id}/quote`: a new quote replaces the last one and raises its version. */
export function quoteTravelItem(api: ApiClient, itemId: string, quote: TravelQuoteRequest) {
  return api.post<StaffTravelItem>(`/staff/travel/${encodeURIComponent(itemId)}/quote`, { body: quote });
}

export function useQuoteTravelItem(itemId: string) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (quote: TravelQuoteRequest) => quoteTravelItem(api, itemId, quote),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['staff-travel'] }),
  });
}
