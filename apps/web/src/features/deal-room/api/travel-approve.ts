import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/**
 * `POST /api/v1/deals/{id}/travel/{item}/approve`: the caller's approval of a travel quote, with the
 * buyer's signature of its partial payout (the seller sends none).
 */
export function approveTravel(
  api: ApiClient,
  dealId: string,
  itemId: string,
  signature: string | null,
  idempotencyKey: string,
) {
  return api.post<{ changed: boolean }>(
    `/deals/${encodeURIComponent(dealId)}/travel/${encodeURIComponent(itemId)}/approve`,
    { body: signature ? { signature } : {}, idempotencyKey },
  );
}

export function useApproveTravel(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { itemId: string; signature: string | null }) =>
      approveTravel(api, dealId, input.itemId, input.signature, crypto.randomUUID()),
    // The deal's own key covers its meeting, travel and escrow.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
