import type { Dispute, DisputeDecisionRequest } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

/** `POST /staff/disputes/{id}/decision`: release, refund, or a split in base units per leg, with the rationale. */
export function decideDispute(api: ApiClient, id: string, decision: DisputeDecisionRequest) {
  return api.post<Dispute>(`/staff/disputes/${encodeURIComponent(id)}/decision`, {
    body: decision,
    idempotencyKey: crypto.randomUUID(),
  });
}

export function useDecideDispute(id: string) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: DisputeDecisionRequest) => decideDispute(api, id, decision),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['staff-disputes'] }),
  });
}
