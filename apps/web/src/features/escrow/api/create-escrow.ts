import type { escrowCreateResponseSchema } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import { escrowQueryKey } from './get-escrow.js';

export type EscrowCreateResponse = z.infer<typeof escrowCreateResponseSchema>;

/** `POST /api/v1/escrow/create`: idempotent, so a second click or the other party's click is harmless. */
export function createEscrow(api: ApiClient, dealId: string, idempotencyKey: string) {
  return api.post<EscrowCreateResponse>('/escrow/create', { body: { deal_id: dealId }, idempotencyKey });
}

export function useCreateEscrow(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createEscrow(api, dealId, crypto.randomUUID()),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: escrowQueryKey(user?.id, dealId) }),
        queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
      ]),
  });
}
