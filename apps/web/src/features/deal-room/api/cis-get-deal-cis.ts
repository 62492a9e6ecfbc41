import type { DealCis } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** `GET /api/v1/deals/{id}/cis`: each party's attached sheet (the counterparty's included) and its review. */
export function getDealCis(api: ApiClient, dealId: string): Promise<DealCis> {
  return api.get<DealCis>(`/deals/${encodeURIComponent(dealId)}/cis`);
}

// Under the deal's own key, so whatever refreshes the deal refreshes its CIS exchange too.
export function getDealCisQueryOptions(api: ApiClient, userId: string | undefined, dealId: string) {
  return queryOptions({
    queryKey: ['deals', userId, dealId, 'cis'],
    queryFn: () => getDealCis(api, dealId),
    enabled: Boolean(userId),
  });
}

export function useDealCis(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getDealCisQueryOptions(api, user?.id, dealId));
}
