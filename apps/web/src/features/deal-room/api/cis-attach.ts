import type { DealCis } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** `POST /api/v1/deals/{id}/cis` {cis_id}: attach one of the caller's sheets as its party's CIS. */
export function attachDealCis(api: ApiClient, dealId: string, cisId: string): Promise<DealCis> {
  return api.post<DealCis>(`/deals/${encodeURIComponent(dealId)}/cis`, {
    body: { cis_id: cisId },
    idempotencyKey: crypto.randomUUID(),
  });
}

export function useAttachDealCis(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cisId: string) => attachDealCis(api, dealId, cisId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
