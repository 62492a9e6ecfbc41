import type { EscrowStatusView, escrowLegNames } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import { escrowQueryKey } from './get-escrow.js';

export type EscrowLegName = (typeof escrowLegNames)[number];
export type ReleaseInput = { leg: EscrowLegName; signature: string };

/**
 * `POST /api/v1/escrow/release`: the caller's EIP-712 approval of a leg's payout. The server checks it
 * recovers to the caller's registered address (400 INVALID_SIGNATURE otherwise) and answers the
 * escrow as it now stands.
 */
export function releaseEscrow(api: ApiClient, dealId: string, input: ReleaseInput, idempotencyKey: string) {
  return api.post<EscrowStatusView>('/escrow/release', {
    body: { deal_id: dealId, leg: input.leg, signature: input.signature },
    idempotencyKey,
  });
}

export function useReleaseEscrow(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReleaseInput) => releaseEscrow(api, dealId, input, crypto.randomUUID()),
    onSuccess: (escrow) => {
      queryClient.setQueryData(escrowQueryKey(user?.id, dealId), escrow);
      return queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] });
    },
  });
}
