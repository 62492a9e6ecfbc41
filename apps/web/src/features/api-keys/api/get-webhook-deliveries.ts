import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export type WebhookDelivery = {
  id: string;
  event: string;
  status: string;
  attempts: number;
  response_status: number | null;
  created_at: string;
};

export async function getWebhookDeliveries(api: ApiClient, webhookId: string): Promise<WebhookDelivery[]> {
  const { data } = await api.get<{ data: WebhookDelivery[] }>(
    `/webhooks/${encodeURIComponent(webhookId)}/deliveries`,
  );
  return data;
}

export function getWebhookDeliveriesQueryOptions(
  api: ApiClient,
  userId: string | undefined,
  webhookId: string,
) {
  return queryOptions({
    queryKey: ['webhooks', userId, webhookId, 'deliveries'],
    queryFn: () => getWebhookDeliveries(api, webhookId),
    enabled: Boolean(userId),
  });
}

export function useWebhookDeliveries(webhookId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getWebhookDeliveriesQueryOptions(api, user?.id, webhookId));
}
