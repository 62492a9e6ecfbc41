import type { Deal, DealPartyAddresses } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** `PUT /api/v1/deals/{id}/addresses`: the caller's own payout and refund addresses on the deal. */
export function setDealAddresses(
  api: ApiClient,
  dealId: string,
  addresses: DealPartyAddresses,
): Promise<Deal> {
  return api.put<Deal>(`/deals/${encodeURIComponent(dealId)}/addresses`, { body: addresses });
}

export function useSetDealAddresses(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (addresses: DealPartyAddresses) => setDealAddresses(api, dealId, addresses),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
