import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

export function replayWebhookDelivery(
  api: ApiClient,
  webhookId: string,
  deliveryId: string,
): Promise<unknown> {
  return api.post(
    `/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/replay`,
    { idempotencyKey: crypto.randomUUID() },
  );
}

export function useReplayWebhookDelivery(webhookId: string) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => replayWebhookDelivery(api, webhookId, deliveryId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks'] }),
  });
}
