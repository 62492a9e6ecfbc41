import type { StaffKycSubmission, TradingTier } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

export type KycDecision =
  | { decision: 'approve'; tier: TradingTier; limit_usd?: string }
  | { decision: 'reject'; reason: string };

/** `POST /staff/kyc/{id}/approve` with a tier (and an institutional limit), or `/reject` with a reason. */
export function reviewKycSubmission(api: ApiClient, id: string, review: KycDecision) {
  const { decision, ...body } = review;
  return api.post<Omit<StaffKycSubmission, 'user'>>(`/staff/kyc/${id}/${decision}`, { body });
}

export function useReviewKycSubmission(id: string) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (review: KycDecision) => reviewKycSubmission(api, id, review),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['staff-kyc'] }),
  });
}
