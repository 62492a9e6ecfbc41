import type { DealAuditTrail } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export function getDealAudit(api: ApiClient, dealId: string) {
  return api.get<DealAuditTrail>(`/deals/${encodeURIComponent(dealId)}/audit`);
}

export function getDealAuditQueryOptions(api: ApiClient, userId: string | undefined, dealId: string) {
  return queryOptions({
    // Under the deal's key: every change to the deal adds an entry, and refreshes this with it.
    queryKey: ['deals', userId, dealId, 'audit'],
    queryFn: () => getDealAudit(api, dealId),
    enabled: Boolean(userId),
  });
}

/** The deal's audit trail as the server verified it just now. */
export function useDealAudit(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getDealAuditQueryOptions(api, user?.id, dealId));
}
