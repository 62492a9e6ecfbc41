import type { DealParty, TravelKindName } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import type { TravelItem } from './travel-list.js';

export type TravelRequestInput = { kind: TravelKindName; traveller: DealParty; details: string };

/** `POST /api/v1/deals/{id}/travel`: one item (a flight, a hotel, ground transport) for the concierge to quote. */
export function requestTravel(
  api: ApiClient,
  dealId: string,
  input: TravelRequestInput,
  idempotencyKey: string,
) {
  return api.post<TravelItem>(`/deals/${encodeURIComponent(dealId)}/travel`, { body: input, idempotencyKey });
}

export function useRequestTravel(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    // A key per submission: the API client's retry of it is carried out once.
    mutationFn: (input: TravelRequestInput) => requestTravel(api, dealId, input, crypto.randomUUID()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
