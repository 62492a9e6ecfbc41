import type { DealCis } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** A verdict on the counterparty's sheet `cisId`: the one shown to the viewer. */
export type CisReviewInput =
  | { verdict: 'approve'; cisId: string }
  | { verdict: 'reject'; cisId: string; comment: string };

/**
 * `POST /api/v1/deals/{id}/cis/approve` {cis_id} or `/reject` {cis_id, comment}: review the
 * counterparty's CIS, naming the sheet read (a sheet swapped in since is refused with 409).
 */
export function reviewDealCis(api: ApiClient, dealId: string, review: CisReviewInput): Promise<DealCis> {
  const path = `/deals/${encodeURIComponent(dealId)}/cis/${review.verdict}`;
  const body =
    review.verdict === 'reject'
      ? { cis_id: review.cisId, comment: review.comment }
      : { cis_id: review.cisId };
  return api.post<DealCis>(path, { body, idempotencyKey: crypto.randomUUID() });
}

// The approval that completes the exchange changes the deal's status: the whole deal is reloaded.
// A refusal reloads it too, so a sheet swapped in meanwhile is shown before anyone reviews again.
export function useReviewDealCis(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (review: CisReviewInput) => reviewDealCis(api, dealId, review),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
