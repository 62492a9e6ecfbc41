import type { UserNotificationPage } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** How often the bell asks again; a live deal event on an open deal page refreshes it sooner. */
const pollIntervalMs = 60_000;

/** `GET /api/v1/notifications`: the newest page of the caller's notifications and the unread count. */
export function getNotifications(api: ApiClient): Promise<UserNotificationPage> {
  return api.get<UserNotificationPage>('/notifications');
}

export function getNotificationsQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['notifications', userId],
    queryFn: () => getNotifications(api),
    enabled: Boolean(userId),
    refetchInterval: pollIntervalMs,
  });
}

export function useNotifications() {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getNotificationsQueryOptions(api, user?.id));
}
