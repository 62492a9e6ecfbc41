import type { Deal, Meeting } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

// Amounts are base-unit decimal strings, parsed exactly from what the trader typed.
export type CreateDealInput = {
  asset_chain: string;
  asset_symbol: string;
  asset_amount: string;
  stable_chain: string;
  stable_symbol: string;
  stable_amount: string;
  counterparty_id: string;
  meeting_required: boolean;
  travel_location?: string;
  /** With meeting_required: the meeting's place, coordinates, dates and who pays travel. */
  meeting?: Meeting;
};

export function createDeal(api: ApiClient, input: CreateDealInput): Promise<Deal> {
  return api.post<Deal>('/deals', { body: input, idempotencyKey: crypto.randomUUID() });
}

export function useCreateDeal() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateDealInput) => createDeal(api, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals'] }),
  });
}
