import type { StaffDealSearchResult } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export function searchStaffDeals(api: ApiClient, q: string) {
  return api.get<StaffDealSearchResult>('/staff/deals', { query: { q, limit: 50 } });
}

export function searchStaffDealsQueryOptions(api: ApiClient, userId: string | undefined, q: string) {
  return queryOptions({
    queryKey: ['staff', userId, 'deals', 'search', q],
    queryFn: () => searchStaffDeals(api, q),
    // Every search is recorded in the audit trail of each deal it lists: searched only when asked.
    enabled: Boolean(userId) && q.length > 0,
    // A failed search is not sent again by itself: each one is a recorded read.
    retry: false,
  });
}

/** The deals matching `q` exactly (deal, escrow or user id, e-mail, username or an address), newest first. */
export function useStaffDealSearch(q: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(searchStaffDealsQueryOptions(api, user?.id, q));
}
