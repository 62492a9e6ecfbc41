import type { StaffUserList } from '@covenant/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export function findStaffUsers(api: ApiClient, query: string) {
  return api.get<StaffUserList>('/staff/users', { query: { query, limit: 50 } });
}

export function findStaffUsersQueryOptions(api: ApiClient, userId: string | undefined, query: string) {
  return queryOptions({
    queryKey: ['staff', userId, 'users', query],
    queryFn: () => findStaffUsers(api, query),
    enabled: Boolean(userId),
    placeholderData: keepPreviousData,
  });
}

/** Users whose e-mail address or username contains `query`, with their roles (first 50). */
export function useStaffUsers(query: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(findStaffUsersQueryOptions(api, user?.id, query));
}
