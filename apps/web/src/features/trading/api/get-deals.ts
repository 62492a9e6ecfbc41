import type { Deal } from '@covenant/domain';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export type DealsPage = { data: Deal[]; has_more: boolean };

const pageSize = 50;

// Newest first, the caller's deals as buyer or seller; the next page starts after the last deal seen.
export function getDeals(api: ApiClient, startingAfter?: string): Promise<DealsPage> {
  return api.get<DealsPage>('/deals', { query: { limit: pageSize, starting_after: startingAfter } });
}

export function getDealsQueryOptions(api: ApiClient, userId: string | undefined) {
  return infiniteQueryOptions({
    queryKey: ['deals', userId, 'list'],
    queryFn: ({ pageParam }) => getDeals(api, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
    enabled: Boolean(userId),
  });
}

export function useDeals() {
  const api = useApiClient();
  const { user } = useAuth();
  return useInfiniteQuery(getDealsQueryOptions(api, user?.id));
}
