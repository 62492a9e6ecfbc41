import type { DealWithHistory } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, ApiError, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
export function getDeal(api: ApiClient, id: string): Promise<DealWithHistory> {
  return api.get<DealWithHistory>(`/deals/${encodeURIComponent(id)}`);
}

export function getDealQueryOptions(api: ApiClient, userId: string | undefined, id: string) {
  return queryOptions({
    queryKey: ['deals', userId, id],
    queryFn: () => getDeal(api, id),
    enabled: Boolean(userId),
    // A 404 is the answer (not a party, or no such deal): asking again cannot change it.
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 1,
  });
}

export function useDeal(id: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getDealQueryOptions(api, user?.id, id));
}
