import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import type { SupportKind, SupportMessageSummary, SupportStatus } from './support-message.js';

export type InboxFilters = { status: SupportStatus | ''; kind: SupportKind | '' };

type InboxPage = { data: SupportMessageSummary[]; has_more: boolean };

const pageSize = 25;

export function getSupportMessages(api: ApiClient, filters: InboxFilters, startingAfter: string | undefined) {
  return api.get<InboxPage>('/staff/support/messages', {
    query: { status: filters.status, kind: filters.kind, limit: pageSize, starting_after: startingAfter },
  });
}

export function getSupportMessagesQueryOptions(
  api: ApiClient,
  userId: string | undefined,
  filters: InboxFilters,
) {
  return infiniteQueryOptions({
    queryKey: ['staff-support-messages', userId, filters],
    queryFn: ({ pageParam }) => getSupportMessages(api, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    // The next page starts after the last message of this one.
    getNextPageParam: (page) => (page.has_more ? page.data.at(-1)?.id : undefined),
    enabled: Boolean(userId),
  });
}

export function useSupportMessages(filters: InboxFilters) {
  const api = useApiClient();
  const { user } = useAuth();
  return useInfiniteQuery(getSupportMessagesQueryOptions(api, user?.id, filters));
}
