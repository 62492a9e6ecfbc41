import type { Deal } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** `POST /api/v1/deals/{id}/terms/accept` {version}: accept exactly the version the trader saw. */
export function acceptDealTerms(api: ApiClient, dealId: string, version: number): Promise<Deal> {
  return api.post<Deal>(`/deals/${encodeURIComponent(dealId)}/terms/accept`, {
    body: { version },
    idempotencyKey: crypto.randomUUID(),
  });
}

// A refusal (a newer version, a changed status) is news about the deal as well: reload it either way.
export function useAcceptDealTerms(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => acceptDealTerms(api, dealId, version),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
