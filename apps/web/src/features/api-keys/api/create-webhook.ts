import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import type { Webhook } from './get-webhooks.js';

// `secret` signs every delivery; it is present only in this answer.
export type CreatedWebhook = Webhook & { secret: string };

export type CreateWebhookInput = { url: string; events: string[] };

export function createWebhook(api: ApiClient, input: CreateWebhookInput): Promise<CreatedWebhook> {
  return api.post<CreatedWebhook>('/webhooks', { body: input, idempotencyKey: crypto.randomUUID() });
}

export function useCreateWebhook() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateWebhookInput) => createWebhook(api, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks'] }),
  });
}
