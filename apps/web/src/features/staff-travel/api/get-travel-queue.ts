import type { StaffTravelItem } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export function getTravelQueue(api: ApiClient) {
  return api.get<{ data: StaffTravelItem[] }>('/staff/travel');
}

export function getTravelQueueQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['staff-travel', userId],
    queryFn: () => getTravelQueue(api),
    enabled: Boolean(userId),
  });
}

/** The concierge's queue: items to quote or awaiting approval first, oldest first. */
export function useTravelQueue() {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getTravelQueueQueryOptions(api, user?.id));
}
