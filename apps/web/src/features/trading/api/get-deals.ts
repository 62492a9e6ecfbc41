import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import type { Deal } from './deal.js';

// Newest first, the caller's deals as buyer or seller. The desk shows the latest page of 100.
export async function getDeals(api: ApiClient): Promise<Deal[]> {
  const { data } = await api.get<{ data: Deal[]; has_more: boolean }>('/deals', { query: { limit: 100 } });
  return data;
}

export function getDealsQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['deals', userId],
    queryFn: () => getDeals(api),
    enabled: Boolean(userId),
  });
}

export function useDeals() {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getDealsQueryOptions(api, user?.id));
}
