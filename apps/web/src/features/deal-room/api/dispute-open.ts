import type { Dispute } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export type OpenDisputeInput = { reason: string; evidence: File[] };

/** `POST /deals/{id}/disputes`: JSON without evidence, multipart with it. */
export function openDispute(api: ApiClient, dealId: string, input: OpenDisputeInput, idempotencyKey: string) {
  let body: unknown = { reason: input.reason };
  if (input.evidence.length > 0) {
    const form = new FormData();
    form.append('reason', input.reason);
    for (const file of input.evidence) form.append('evidence', file, file.name);
    body = form;
  }
  return api.post<Dispute>(`/deals/${encodeURIComponent(dealId)}/disputes`, { body, idempotencyKey });
}

export function useOpenDispute(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    // A key per submission: the API client's retry of it is carried out once.
    mutationFn: (input: OpenDisputeInput) => openDispute(api, dealId, input, crypto.randomUUID()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
