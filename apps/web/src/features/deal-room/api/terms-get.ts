import type { DealTermsHistory } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** `GET /api/v1/deals/{id}/terms`: every version of the terms, the accepted one and its terms hash. */
export function getDealTerms(api: ApiClient, dealId: string): Promise<DealTermsHistory> {
  return api.get<DealTermsHistory>(`/deals/${encodeURIComponent(dealId)}/terms`);
}

// Under the deal's own key, so whatever refreshes the deal refreshes its terms too.
export function getDealTermsQueryOptions(api: ApiClient, userId: string | undefined, dealId: string) {
  return queryOptions({
    queryKey: ['deals', userId, dealId, 'terms'],
    queryFn: () => getDealTerms(api, dealId),
    enabled: Boolean(userId),
  });
}

export function useDealTerms(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getDealTermsQueryOptions(api, user?.id, dealId));
}
