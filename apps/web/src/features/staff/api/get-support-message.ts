import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import type { SupportMessageDetail } from './support-message.js';

export function getSupportMessage(api: ApiClient, id: string) {
  return api.get<SupportMessageDetail>(`/staff/support/messages/${encodeURIComponent(id)}`);
}

export function getSupportMessageQueryOptions(api: ApiClient, userId: string | undefined, id: string) {
  return queryOptions({
    queryKey: ['staff-support-message', userId, id],
    queryFn: () => getSupportMessage(api, id),
    enabled: Boolean(userId),
  });
}

export function useSupportMessage(id: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getSupportMessageQueryOptions(api, user?.id, id));
}
