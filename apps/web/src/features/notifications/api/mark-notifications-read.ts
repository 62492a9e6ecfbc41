import type { UserNotification } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** `POST /api/v1/notifications/{id}/read`. */
export function markNotificationRead(api: ApiClient, id: string): Promise<UserNotification> {
  return api.post<UserNotification>(`/notifications/${encodeURIComponent(id)}/read`);
}

/** `POST /api/v1/notifications/read-all`. */
export function markAllNotificationsRead(api: ApiClient): Promise<{ marked: number }> {
  return api.post<{ marked: number }>('/notifications/read-all');
}

export function useMarkNotificationsRead() {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['notifications', user?.id] });
  return {
    one: useMutation({ mutationFn: (id: string) => markNotificationRead(api, id), onSuccess: refresh }),
    all: useMutation({ mutationFn: () => markAllNotificationsRead(api), onSuccess: refresh }),
  };
}
