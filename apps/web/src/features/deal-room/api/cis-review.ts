import type { DealCis } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export type CisReviewInput = { verdict: 'approve' } | { verdict: 'reject'; comment: string };

/** `POST /api/v1/deals/{id}/cis/approve` or `/reject` {comment}: review the counterparty's CIS. */
export function reviewDealCis(api: ApiClient, dealId: string, review: CisReviewInput): Promise<DealCis> {
  const path = `/deals/${encodeURIComponent(dealId)}/cis/${review.verdict}`;
  const body = review.verdict === 'reject' ? { comment: review.comment } : {};
  return api.post<DealCis>(path, { body, idempotencyKey: crypto.randomUUID() });
}

// The approval that completes the exchange changes the deal's status: the whole deal is reloaded.
export function useReviewDealCis(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (review: CisReviewInput) => reviewDealCis(api, dealId, review),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
