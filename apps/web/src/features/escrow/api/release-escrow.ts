import type { EscrowStatusView, escrowLegNames } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import { escrowQueryKey } from './get-escrow.js';

export type EscrowLegName = (typeof escrowLegNames)[number];
/** An Ethereum leg is approved with an EIP-712 signature, a Bitcoin leg with its PSBT signed (base64). */
export type ReleaseInput = { leg: EscrowLegName; signature: string } | { leg: EscrowLegName; psbt: string };

/**
 * `POST /api/v1/escrow/release`: the caller's approval of a leg's payout. The server checks it is the
 * caller's registered signer's (400 INVALID_SIGNATURE otherwise) and answers the escrow as it now
 * stands.
 */
export function releaseEscrow(api: ApiClient, dealId: string, input: ReleaseInput, idempotencyKey: string) {
  const approval = 'psbt' in input ? { psbt: input.psbt } : { signature: input.signature };
  return api.post<EscrowStatusView>('/escrow/release', {
    body: { deal_id: dealId, leg: input.leg, ...approval },
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
