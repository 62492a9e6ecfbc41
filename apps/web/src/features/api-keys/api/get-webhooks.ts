import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export type Webhook = { id: string; url: string; events: string[]; created_at: string };

export async function getWebhooks(api: ApiClient): Promise<Webhook[]> {
  const { data } = await api.get<{ data: Webhook[] }>('/webhooks');
  return data;
}

export function getWebhooksQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['webhooks', userId],
    queryFn: () => getWebhooks(api),
    enabled: Boolean(userId),
  });
}

export function useWebhooks() {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getWebhooksQueryOptions(api, user?.id));
}
