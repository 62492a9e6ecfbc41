import type { StaffTravelItem } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

/** `POST /staff/travel/{item_id}/booked`: only once the item's payout is paid. */
export function markTravelBooked(api: ApiClient, itemId: string) {
  return api.post<StaffTravelItem>(`/staff/travel/${encodeURIComponent(itemId)}/booked`);
}

export function useMarkTravelBooked(itemId: string) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => markTravelBooked(api, itemId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['staff-travel'] }),
  });
}
