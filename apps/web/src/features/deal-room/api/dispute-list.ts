import type { Dispute } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export function getDealDisputes(api: ApiClient, dealId: string) {
  return api.get<{ data: Dispute[] }>(`/deals/${encodeURIComponent(dealId)}/disputes`);
}

export function getDealDisputesQueryOptions(api: ApiClient, userId: string | undefined, dealId: string) {
  return queryOptions({
    // Under the deal's key, so whatever refreshes the deal refreshes its disputes too.
    queryKey: ['deals', userId, dealId, 'disputes'],
    queryFn: () => getDealDisputes(api, dealId),
    enabled: Boolean(userId),
  });
}

/** The deal's disputes, oldest first; `enabled` false while the deal has never been disputable. */
export function useDealDisputes(dealId: string, enabled: boolean) {
  const api = useApiClient();
  const { user } = useAuth();
  const options = getDealDisputesQueryOptions(api, user?.id, dealId);
  return useQuery({ ...options, enabled: options.enabled !== false && enabled });
}
