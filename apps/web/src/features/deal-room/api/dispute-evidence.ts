import type { Dispute } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

const evidencePath = (dealId: string, disputeId: string) =>
  `/deals/${encodeURIComponent(dealId)}/disputes/${encodeURIComponent(disputeId)}/evidence`;

/** An evidence file, decrypted by the server; the Bearer header rules out a plain link. */
export function getDisputeEvidence(api: ApiClient, dealId: string, disputeId: string, evidenceId: string) {
  return api.get<Blob>(`${evidencePath(dealId, disputeId)}/${encodeURIComponent(evidenceId)}`, {
    as: 'blob',
  });
}

/** `POST /deals/{id}/disputes/{disputeId}/evidence` with 1–5 files, while the dispute is open. */
export function addDisputeEvidence(api: ApiClient, dealId: string, disputeId: string, files: File[]) {
  const form = new FormData();
  for (const file of files) form.append('evidence', file, file.name);
  return api.post<Dispute>(evidencePath(dealId, disputeId), { body: form });
}

export function useAddDisputeEvidence(dealId: string, disputeId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (files: File[]) => addDisputeEvidence(api, dealId, disputeId, files),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
