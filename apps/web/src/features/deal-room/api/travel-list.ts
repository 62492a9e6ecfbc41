import type { TravelItem } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export type { TravelItem } from '@covenant/domain';

/** `GET /api/v1/deals/{id}/travel`: the meeting's travel requests with their quotes and approvals. */
export function getDealTravel(api: ApiClient, dealId: string): Promise<{ data: TravelItem[] }> {
  return api.get<{ data: TravelItem[] }>(`/deals/${encodeURIComponent(dealId)}/travel`);
}

/** Quoted and approved items change without a deal event (their payout is built, sent): polled. */
const pollMs = 3_000;
const moving = new Set(['quoted', 'approved']);

// Under the deal's own key, so the live updates that refresh the deal refresh its travel too.
export function getDealTravelQueryOptions(api: ApiClient, userId: string | undefined, dealId: string) {
  return queryOptions({
    queryKey: ['deals', userId, dealId, 'travel'],
    queryFn: () => getDealTravel(api, dealId),
    enabled: Boolean(userId),
    refetchInterval: (query) =>
      query.state.data?.data.some((item) => moving.has(item.status)) ? pollMs : false,
  });
}

export function useDealTravel(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getDealTravelQueryOptions(api, user?.id, dealId));
}
