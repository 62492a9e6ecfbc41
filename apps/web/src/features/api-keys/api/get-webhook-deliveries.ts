import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

// Every attempt is logged: when it ran, what the receiver answered (or why it could not), how long.
export type WebhookAttempt = {
  attempted_at: string;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
};

export type WebhookDelivery = {
  id: string;
  event: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempt_count: number;
  created_at: string;
  last_attempt_at: string | null;
  attempts: WebhookAttempt[];
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
