import type { StaffDealView } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export function getStaffDeal(api: ApiClient, dealId: string) {
  return api.get<StaffDealView>(`/staff/deals/${encodeURIComponent(dealId)}`);
}

export function getStaffDealQueryOptions(api: ApiClient, userId: string | undefined, dealId: string) {
  return queryOptions({
    queryKey: ['staff', userId, 'deals', 'one', dealId],
    queryFn: () => getStaffDeal(api, dealId),
    enabled: Boolean(userId),
    // Each read is recorded; a 404 or 403 is not asked again by itself.
    retry: false,
  });
}

/** One deal whole as staff see it; each read is recorded in the deal's audit trail by the server. */
export function useStaffDeal(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getStaffDealQueryOptions(api, user?.id, dealId));
}
