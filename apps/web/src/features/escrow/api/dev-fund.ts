import type { devFundResponseSchema } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import { escrowQueryKey } from './get-escrow.js';
import type { EscrowLegName } from './release-escrow.js';

export type DevFundResponse = z.infer<typeof devFundResponseSchema>;

/**
 * `POST /api/v1/dev/fund` (devnet only): the server pays the leg's full amount into its deposit
 * address from a funded devnet account, so a deal can be tried end to end without a wallet.
 */
export function devFund(api: ApiClient, dealId: string, leg: EscrowLegName) {
  return api.post<DevFundResponse>('/dev/fund', { body: { deal_id: dealId, leg } });
}

export function useDevFund(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (leg: EscrowLegName) => devFund(api, dealId, leg),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: escrowQueryKey(user?.id, dealId) }),
  });
}
