import type { DealMessage, NewDealMessage } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** `POST /api/v1/deals/{id}/messages` {body}: write to the deal room. */
export function postDealMessage(
  api: ApiClient,
  dealId: string,
  message: NewDealMessage,
): Promise<DealMessage> {
  return api.post<DealMessage>(`/deals/${encodeURIComponent(dealId)}/messages`, {
    body: message,
    idempotencyKey: crypto.randomUUID(),
  });
}

export function usePostDealMessage(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: NewDealMessage) => postDealMessage(api, dealId, message),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId, 'messages'] }),
  });
}
