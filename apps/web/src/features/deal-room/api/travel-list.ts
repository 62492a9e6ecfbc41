import type { DealParty, TravelKindName } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** A concierge's quote for a travel item: paid from the stable leg once both parties approve it. */
export type TravelQuote = {
  version: number;
  provider: string;
  description: string;
  /** Base units of the stable token, as a decimal string. */
  amount: string;
  symbol: string;
  chain: string;
  payee_address: string;
  has_file: boolean;
  quoted_at: string;
};

/** One travel request of a deal's meeting, as `GET /deals/{id}/travel` lists it. */
export type TravelItem = {
  id: string;
  kind: TravelKindName;
  traveller: DealParty;
  details: string;
  status: string;
  requested_by: DealParty;
  quote: TravelQuote | null;
  approved_by: DealParty[];
  signing_payload: unknown;
  transaction_hash: string | null;
  booked_at: string | null;
  created_at: string;
};

/** `GET /api/v1/deals/{id}/travel`: the meeting's travel requests with their quotes and approvals. */
export function getDealTravel(api: ApiClient, dealId: string): Promise<{ data: TravelItem[] }> {
  return api.get<{ data: TravelItem[] }>(`/deals/${encodeURIComponent(dealId)}/travel`);
}

/** Quoted and approved items change without a deal event (their payout is built, sent): polled. */
const pollMs = 3_000;
const moving = new Set(['quoted', 'approved']);

// Under the deal's own key, so the live updates that refresh the deal refresh its travel too.
export function getDealTravelQueryOptions(api: ApiClient, userId: string | undefined, dealId: string) {
  return queryOptions({
    queryKey: ['deals', userId, dealId, 'travel'],
    queryFn: () => getDealTravel(api, dealId),
    enabled: Boolean(userId),
    refetchInterval: (query) =>
      query.state.data?.data.some((item) => moving.has(item.status)) ? pollMs : false,
  });
}

export function useDealTravel(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getDealTravelQueryOptions(api, user?.id, dealId));
}
